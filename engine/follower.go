package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// readerFollower is one source's following of its periodic readers: it
// learns from the schema's arrivals which pmcd clients fetch the source
// and when (readers.go), and plans the samples that have a fresh one
// waiting for their fetches (phase.go).
type readerFollower struct {
	// readers are the clients that fetch the source, learnt by the loop
	// (after: the next arrival to read); mu guards them against Forget
	// and the reader_phases metric.
	mu      sync.Mutex
	readers readerSet
	after   uint64
	// publishedAt is when the loop's last sample was published, and
	// pubLog its last samples' times (the loop's own).
	publishedAt time.Time
	pubLog      publishLog
	// What the plan shows: periodic readers, the largest age of the
	// sample one was served (ms, 0 with none), extra samples taken.
	count    atomic.Uint32
	oldestMS atomic.Int64
	extras   atomic.Uint64
}

// learn feeds the readers the fetches of source since the last call,
// each with the age of the sample it was served, and releases those gone
// quiet by now.
func (f *readerFollower) learn(schema *cache.Schema, source int, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after = schema.Arrivals(source, f.after, func(client int32, at time.Time) {
		age, known := f.pubLog.servedAt(at)
		f.readers.arrive(client, at, age, known)
	})
	f.readers.expire(now)
}

// replan works out the grid's phase and the extra samples into out, at
// most bound phases (0: the fixed grid), and what the self-metrics show
// of them.
func (f *readerFollower) replan(iv time.Duration, bound int, now time.Time, out *samplingPlan) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readers.plan(planInput{interval: iv, delay: f.pubLog.delay(), bound: bound, now: now}, out)
	f.count.Store(uint32(f.readers.periodicCount()))
	age, _ := f.readers.oldestServed()
	f.oldestMS.Store(age.Milliseconds())
}

// phaseBound is how many phases e may sample at, reader_phases being
// phases: a source slowed down for want of readers, or reader_phases 0,
// samples on the fixed grid.
func phaseBound(phases int64, e *entry) int {
	if e.idle.slowed.Load() {
		return 0
	}
	return int(phases)
}

// noteSample records a sample planned at planned and taken at taken,
// published at publishedAt.
func (f *readerFollower) noteSample(planned, taken time.Time) {
	f.pubLog.add(planned, taken, f.publishedAt)
}

// forget releases client's reader: pmcd says the client has gone.
func (f *readerFollower) forget(client int32) {
	f.mu.Lock()
	f.readers.forget(client)
	f.mu.Unlock()
}

// describe says, for an administrator, each reader with a known period.
func (f *readerFollower) describe() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readers.describe()
}

// publishKept is how many of a source's samples publishLog remembers:
// fetches are drained at every sample, so a few samples back suffice.
const publishKept = 16

// publishLog remembers when a source's last samples were planned, taken
// and published, to tell the age of the sample a fetch was served and how
// long a sample takes from its planned time to its publication. Only
// the source's loop uses it.
type publishLog struct {
	planned, taken, published [publishKept]time.Time
	n                         int
}

// add records a published sample.
func (pl *publishLog) add(planned, taken, published time.Time) {
	k := pl.n % publishKept
	pl.planned[k], pl.taken[k], pl.published[k] = planned, taken, published
	pl.n++
}

// servedAt is the age at fetch of the newest sample published before it;
// false when none that is remembered was.
func (pl *publishLog) servedAt(fetch time.Time) (time.Duration, bool) {
	for i := pl.n - 1; i >= max(0, pl.n-publishKept); i-- {
		k := i % publishKept
		if !pl.published[k].After(fetch) {
			return fetch.Sub(pl.taken[k]), true
		}
	}
	return 0, false
}

// delay is the longest a remembered sample took from its planned time to
// its publication: the timer's lateness and the sample's duration.
func (pl *publishLog) delay() time.Duration {
	var d time.Duration
	for i := max(0, pl.n-publishKept); i < pl.n; i++ {
		k := i % publishKept
		if !pl.planned[k].IsZero() {
			d = max(d, pl.published[k].Sub(pl.planned[k]))
		}
	}
	return d
}
