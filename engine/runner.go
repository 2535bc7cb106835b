package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// entry is one collector: what it publishes, and its part in each of the
// runner's concerns, one named field each.
type entry struct {
	c      Collector
	source int
	log    zerolog.Logger
	// builder is reused from sample to sample (only the entry's loop uses
	// it), so its buffers are not allocated again each time.
	builder *cache.Builder
	// histPtr keeps the source's recent samples (a dynamic source's is
	// replaced when its metrics change); windowed are the metrics computed
	// from it over each client's interval.
	histPtr      atomic.Pointer[history]
	windowed     []windowed
	derivedRates map[cache.MetricID]bool // rate ids the collector derives itself

	sched   entrySchedule  // its interval and its loop's wake-ups (schedule.go)
	stats   sampleStats    // its self-metrics of sampling (sampling.go)
	warn    warnings       // what it logged last, to say it once (warn.go)
	idle    idleState      // whether it is slowed down for want of readers (idle.go)
	budget  budgetShare    // its history's share of the memory budget (budget.go)
	dynamic dynamicState   // its metrics' placement when they change (dynamic.go)
	follow  readerFollower // the periodic readers it follows (follower.go)
	fresh   fetchFresh     // its part in answering fetches fresh (fresh.go)
	// presence lists a Lister's instances for fetches its samples are
	// late for (present.go).
	presence presence
}

// Runner runs every collector on its own ticker and publishes into the cache's front.
type Runner struct {
	log          zerolog.Logger
	schema       *cache.Schema
	front        *cache.Front
	entries      []*entry
	instances    *cache.Instances
	controlIndex int
	ids          *cache.IDMaps // instance id maps, saved after each sample
	recorder     Recorder      // writes the history out on request (may be nil)
	pending      atomic.Int64  // collectors yet to finish their first sample
	ready        chan struct{} // closed when pending reaches zero

	intervals    intervals        // the default interval and staleness, which pmstore sets (schedule.go)
	idle         idleBackoff      // unread sources sample less often (idle.go)
	readerPhases atomic.Int64     // distinct phases a source samples at; 0: the fixed grid only (follower.go)
	budget       memoryBudget     // the memory all histories share (budget.go)
	figures      *intervalFigures // computes the figures over clients' intervals at read time
	fresh        freshness        // fetches answered with fresh samples (fresh.go)
	// now is the clock the schedule reads: time.Now, or one a test drives.
	now func() time.Time
}

// Schedule says how often collectors sample and when their data is stale.
type Schedule struct {
	Default time.Duration // interval of collectors without their own
	// Intervals are the collectors' own intervals, by name (shipped or
	// configured): a change of the default leaves them alone.
	Intervals map[string]time.Duration
	// StaleIntervals is how many of its intervals a collector's data stays
	// servable without a new sample; 0 serves it however old.
	StaleIntervals int
	// IDs are the instance id maps saved after each sample (may be nil).
	IDs *cache.IDMaps
	// History is how far back each source keeps its samples, at its
	// interval when the agent starts; DefaultHistory when 0.
	History time.Duration
	// MaxClients bounds the pmcd clients whose intervals are remembered;
	// DefaultMaxClients when 0.
	MaxClients int
	// HistoryBudget bounds the bytes all histories hold together;
	// DefaultHistoryBudget when 0.
	HistoryBudget int64
	// IdleAfter is how long a source none of whose metrics any client has
	// read samples at its full interval; after that it samples IdleFactor
	// times less often until a client reads one again. 0 never slows a
	// source down.
	IdleAfter  time.Duration
	IdleFactor int
	// ReaderPhases is how many distinct phases a source samples at so
	// that its periodic readers' fetches find a fresh sample, its grid's
	// included (reader_phases in the configuration file). 0
	// samples every source on the fixed grid, half a second past the
	// second.
	ReaderPhases int
	// FreshWithin is how old the samples a fetch is answered from may be:
	// a fetch has its sources sampled when their newest sample is older,
	// and waits for them up to FetchWait (DefaultFetchWait when 0). 0
	// answers fetches from the samples already taken.
	FreshWithin time.Duration
	FetchWait   time.Duration
}

// DefaultStaleIntervals withholds data older than this many intervals.
const DefaultStaleIntervals = 5

// NewRunner prepares collectors to run on sched.
func NewRunner(log zerolog.Logger, cs []Collector, sched Schedule) *Runner {
	r := &Runner{log: log, ids: sched.IDs, now: time.Now}
	r.idle.started = time.Now()
	r.fresh.init()
	r.budget.init(sched, &r.idle, log)
	r.intervals.staleIntervals.Store(int64(sched.StaleIntervals))
	r.setPacing(sched)
	maxClients := sched.MaxClients
	if maxClients <= 0 {
		maxClients = DefaultMaxClients
	}
	r.figures = &intervalFigures{clients: newClients(0, maxClients)}
	r.intervals.defaultMS.Store(sched.Default.Milliseconds())
	r.intervals.startDefaultMS = sched.Default.Milliseconds()
	list := make([]cache.Instance, len(cs))
	for i, c := range cs {
		e := &entry{c: c, log: log.With().Str("collector", c.Name()).Logger(), fresh: newFetchFresh()}
		e.sched.init(sched, c.Name())
		e.idle.paced, _ = c.(Paced)
		if od, ok := c.(OnDemand); ok {
			e.idle.onDemand = od.OnDemand()
		}
		e.stats.staller, _ = c.(interface{ Stalls() uint64 })
		e.presence.lister, _ = c.(Lister)
		r.entries = append(r.entries, e)
		list[i] = cache.Instance{ID: uint32(i), Name: c.Name()}
	}
	r.instances = cache.NewInstances(list)
	r.ready = make(chan struct{})
	r.pending.Store(int64(len(cs)))
	if len(cs) == 0 {
		close(r.ready)
	}
	return r
}

// setPacing takes the settings of sched that change when a source samples
// beyond its interval: the idle back-off, the reader phases and the
// freshness of fetches.
func (r *Runner) setPacing(sched Schedule) {
	r.idle.set(sched.IdleAfter, sched.IdleFactor)
	r.readerPhases.Store(int64(max(0, sched.ReaderPhases)))
	r.fresh.set(sched.FreshWithin, sched.FetchWait)
}

// Ready is closed once every collector has finished its first sample, so
// the first fetch can be answered with data rather than "no values".
func (r *Runner) Ready() <-chan struct{} { return r.ready }

// Sources returns the control source followed by every collector's source,
// in the order the schema must be built with. Each collector's source gets
// the metrics the engine computes over each client's interval: rates, the
// collector's derived figures, and peaks.
func (r *Runner) Sources() []cache.Source {
	out := []cache.Source{r.controlSource()}
	k := 0
	for _, e := range r.entries {
		src := e.c.Source()
		var derived []Derived
		if d, ok := e.c.(Deriver); ok {
			derived = d.Derived()
		}
		e.derivedRates = map[cache.MetricID]bool{}
		for _, d := range derived {
			e.derivedRates[d.Desc.ID] = true
		}
		e.windowed = windowedOf(src, derived)
		e.dynamic.kBase = k
		if _, e.dynamic.on = e.c.(Dynamic); e.dynamic.on {
			e.windowed = e.capWindowed(e.windowed)
		}
		src.Metrics = append([]cache.Desc(nil), src.Metrics...)
		for i := range e.windowed {
			wm := &e.windowed[i]
			wm.desc.Compute = r.figures.compute(e, k, wm, 0)
			src.Metrics = append(src.Metrics, wm.desc)
			k++
		}
		if e.dynamic.on {
			// Its figures' marks are reserved whatever it has now.
			src.Dynamic, k = true, e.dynamic.kBase+DynamicWindowed
		}
		out = append(out, src)
	}
	r.figures.clients.metrics = k
	return out
}

// Collectors returns the collectors the runner samples, in order.
func (r *Runner) Collectors() []Collector {
	out := make([]Collector, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.c
	}
	return out
}

// Forget frees what is kept for a pmcd client that has gone: its marks,
// and its place among each source's readers.
func (r *Runner) Forget(client int32) {
	r.figures.clients.Forget(client)
	for _, e := range r.entries {
		e.follow.forget(client)
	}
}

// Attach binds the runner to the front built from Sources.
func (r *Runner) Attach(front *cache.Front) error {
	r.front, r.schema = front, front.Schema()
	idx, ok := r.schema.SourceIndex(ControlSourceName)
	if !ok {
		return fmt.Errorf("schema has no %s source", ControlSourceName)
	}
	r.controlIndex = idx
	r.fresh.bySource = make([]*entry, len(r.schema.Sources()))
	for _, e := range r.entries {
		if e.source, ok = r.schema.SourceIndex(e.c.Name()); !ok {
			return fmt.Errorf("schema has no source for collector %s", e.c.Name())
		}
		r.fresh.bySource[e.source] = e
		h := r.newHistoryOf(e, r.schema, e.derivedRates)
		h.windowed = e.windowed
		e.histPtr.Store(h)
	}
	r.publishControl()
	front.SetFreshener(r)
	return nil
}

// newHistoryOf is a history of e's metrics in schema, deep enough for
// the history's span at e's interval.
func (r *Runner) newHistoryOf(e *entry, schema *cache.Schema, own map[cache.MetricID]bool) *history {
	likes := map[cache.MetricID]bool{}
	for _, w := range e.windowed {
		likes[w.like] = true
	}
	tracked := trackedOf(schema, e.source, likes)
	h := newHistory(schema, tracked, r.budget.ringDepth(e, len(tracked)), own)
	h.reach(r.budget.history, e.interval())
	h.indoms = schema.InDomsOf(e.source)
	h.boundBy(e.c)
	return h
}

// stopGrace is how long Run waits, once ctx ends, for collectors still in
// a sample: one stuck on a read that never returns (a FIFO, a hung mount)
// must never keep the agent from exiting.
const stopGrace = 100 * time.Millisecond

// Run samples every collector until ctx ends, then returns within
// stopGrace whatever the collectors are doing.
func (r *Runner) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, e := range r.entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.loop(ctx, e)
		}()
	}
	<-ctx.Done()
	stopped := make(chan struct{})
	go func() {
		wg.Wait()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(stopGrace):
		r.log.Info().Msg("stopping while a collector is still in a sample")
	}
	return nil
}

// SampleAt takes one sample of every collector, in order, as if taken at
// now: tests and tools that replay fixture trees set the sample times. It
// returns what the collectors and their builders failed with.
func (r *Runner) SampleAt(now time.Time) error {
	var errs []error
	for _, e := range r.entries {
		if err := r.collect(e, now, false); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", e.c.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// SampleAll takes one sample of every collector, in order. Tests and
// start-up use it to have data before the first tick.
func (r *Runner) SampleAll() {
	for _, e := range r.entries {
		r.sampleOnce(e, time.Time{}, false)
	}
}

// hist is the source's history: nil before the runner is attached.
func (e *entry) hist() *history { return e.histPtr.Load() }

// interval is the entry's interval in force.
func (e *entry) interval() time.Duration { return e.sched.interval() }
