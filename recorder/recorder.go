// Package recorder is the flight recorder: on request it writes the
// samples the engine's histories keep, every number at its own sample
// time, as a PCP archive, in the background and never on the fetch path.
package recorder

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Texts gives the help text written with each metric and instance domain.
type Texts interface {
	MetricText(name string, long bool) (string, bool)
	InDomText(id cache.InDomID, long bool) (string, bool)
}

// Config says where archives go and what they describe.
type Config struct {
	Dir     string // directory of the archives, made when missing
	Host    string // the host the archive label names
	Domain  uint32 // the agent's PMDA domain, the first part of every PMID
	Schema  *cache.Schema
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
}

// DefaultDuty lets the writer take half a CPU.
const DefaultDuty = 0.5

// Recorder writes one archive at a time.
type Recorder struct {
	cfg  Config
	busy atomic.Bool
	wg   sync.WaitGroup
	mu   sync.Mutex // guards st
	st   engine.RecordStatus
}

// New makes a recorder.
func New(cfg Config) *Recorder {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Duty == 0 {
		cfg.Duty = DefaultDuty
	}
	return &Recorder{cfg: cfg}
}

// Start writes the last span of history to a new archive, in the
// background. It returns cache.ErrBusy while another is being written.
func (r *Recorder) Start(span time.Duration) error {
	if !r.busy.CompareAndSwap(false, true) {
		return cache.ErrBusy
	}
	now := r.cfg.Now()
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
		Msg("flight recorder: archive written")
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
