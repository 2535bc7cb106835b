// Package recorder is the flight recorder: on request it writes the
// samples the engine's histories keep, every number at its own sample
// time, as a PCP archive, in the background and never on the fetch path.
package recorder

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// schema is the schema a write begins with.
func (c *Config) schema() *cache.Schema {
	if c.Front != nil {
		return c.Front.Schema()
	}
	return c.Schema
}

// Texts gives the help text written with each metric and instance domain.
type Texts interface {
	MetricText(name string, long bool) (string, bool)
	InDomText(id cache.InDomID, long bool) (string, bool)
}

// Config says where archives go and what they describe.
type Config struct {
	Dir    string // directory of the archives, made when missing
	Host   string // the host the archive label names
	Domain uint32 // the agent's PMDA domain, the first part of every PMID
	Schema *cache.Schema
	// Front, when set, gives the schema each write begins with instead:
	// a dynamic source's metrics change while the agent runs.
	Front   *cache.Front
	Texts   Texts
	History func(since time.Time) []engine.SourceHistory
	// Context are the labels of the archive's context (hostname,
	// machineid), as pmcd gives a client's.
	Context []cache.Label
	// UID and GID own the files when the agent runs as root (-1: leave).
	UID, GID int
	Log      zerolog.Logger
	Now      func() time.Time
	// Duty is the share of one CPU the writer may take (0 or 1: all it
	// can); DefaultDuty when New is given 0.
	Duty float64
	// Writing, when set, is told true as an archive's writing starts and
	// false when it ends, from the writer's goroutine: the agent gives the
	// writer a processor of its own meanwhile, so fetches do not queue
	// behind its slices.
	Writing func(on bool)
	// MaxBytes bounds the bytes of the archives the recorder keeps in Dir:
	// past it the oldest of its own go; DefaultMaxBytes when New is given 0.
	MaxBytes int64
	// MinGap is the least time between two recordings one user asks for
	// (0: none).
	MinGap time.Duration
}

// DefaultDuty lets the writer take half a CPU.
const DefaultDuty = 0.5

// DefaultMaxBytes bounds the archives kept when nothing is said.
const DefaultMaxBytes = 256 << 20

// Recorder writes one archive at a time.
type Recorder struct {
	cfg  Config
	busy atomic.Bool
	wg   sync.WaitGroup
	mu   sync.Mutex // guards st and gaps
	st   engine.RecordStatus
	gaps requestGaps
}

// New makes a recorder.
func New(cfg Config) *Recorder {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Duty == 0 {
		cfg.Duty = DefaultDuty
	}
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	return &Recorder{cfg: cfg}
}

// Start writes the last span of history to a new archive, in the
// background. It returns cache.ErrBusy while another is being written, and
// when who had one started less than MinGap ago.
func (r *Recorder) Start(span time.Duration, who cache.Credentials) error {
	now := r.cfg.Now()
	if err := r.claim(who, now); err != nil {
		return err
	}
	hist := r.cfg.History(now.Add(-span))
	r.mu.Lock()
	r.st.Span = uint32(span / time.Second)
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer r.busy.Store(false)
		if r.cfg.Writing != nil {
			r.cfg.Writing(true)
			defer r.cfg.Writing(false)
		}
		r.finish(r.write(now, hist))
	}()
	return nil
}

// claim makes the recorder busy for who's request, unless it is busy
// already or who asked too recently; a refused request does not count.
func (r *Recorder) claim(who cache.Credentials, now time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if left := r.gaps.wait(who, now, r.cfg.MinGap); left > 0 {
		return fmt.Errorf("%w: uid %d asked for a recording less than %v ago (record_min_gap); %v to wait",
			cache.ErrBusy, who.UID, r.cfg.MinGap, left.Round(time.Second))
	}
	if !r.busy.CompareAndSwap(false, true) {
		return cache.ErrBusy
	}
	r.gaps.started(who, now, r.cfg.MinGap)
	return nil
}

// finish records how a write went.
func (r *Recorder) finish(res result, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.st.Errors++
		r.st.LastError = err.Error()
		r.cfg.Log.Error().Err(err).Msg("flight recorder: no archive written")
		return
	}
	r.st.Archives++
	r.st.Records, r.st.Bytes, r.st.Last, r.st.LastError = uint64(res.records), uint64(res.bytes), res.path, ""
	r.cfg.Log.Info().Str("archive", res.path).Int("records", res.records).Int64("bytes", res.bytes).
		Int64("kept_bytes", res.kept).Msg("flight recorder: archive written")
}

// Status reports the recorder's state.
func (r *Recorder) Status() engine.RecordStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.st
	st.Busy = r.busy.Load()
	return st
}

// Wait waits for an archive being written (tests, shutdown).
func (r *Recorder) Wait() { r.wg.Wait() }
