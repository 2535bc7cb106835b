package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// entry is one collector with its schedule and self-metrics.
type entry struct {
	c          Collector
	source     int
	log        zerolog.Logger
	intervalMS atomic.Int64  // in force: ownMS, or the runner's default
	ownMS      atomic.Int64  // the collector's own interval; 0 follows the default
	startOwnMS int64         // ownMS at start-up, restored by a store of 0
	wake       chan struct{} // the interval changed: reschedule now
	samples    atomic.Uint64
	errors     atomic.Uint64
	skipped    atomic.Uint64 // ticks missed because a sample overran
	resets     atomic.Uint64 // rate intervals dropped: a counter went backwards
	panics     atomic.Uint64
	stalls     atomic.Uint64 // source operations abandoned at their deadline
	durationUS atomic.Int64
	lastOKms   atomic.Int64 // wall clock of the last good sample, ms since epoch
	// idle is set while no client reads the source and it samples
	// idleFactor times less often.
	idle atomic.Bool
	// paced is c when it is a Paced collector (asserted once: an
	// interface assertion each sample cost an itab lookup), and pace the
	// factor it was last given (the loop's own).
	paced Paced
	pace  int
	// staller is c when it counts source operations abandoned at their
	// deadline (asserted once, as paced).
	staller interface{ Stalls() uint64 }
	// panicStreak counts consecutive panics; only the entry's loop uses it.
	panicStreak int
	// lastErr and lastErrAt are the failure logged last (the loop's own).
	lastErr   string
	lastErrAt time.Time
	// warned is when each condition of warnEvery was last logged (the
	// loop's own, and Sources' before the loops start).
	warned map[string]time.Time
	// builder is reused from sample to sample (only the entry's loop uses
	// it), so its buffers are not allocated again each time.
	builder *cache.Builder
	// histPtr keeps the source's recent samples (a dynamic source's is
	// replaced when its metrics change); windowed are the metrics computed
	// from it over each client's interval.
	histPtr atomic.Pointer[history]
	// budgeted is the history cost per second the memory budget was last
	// shared with (under the runner's budgetMu).
	budgeted     float64
	windowed     []windowed
	derivedRates map[cache.MetricID]bool // rate ids the collector derives itself
	// dynamic is set for a Dynamic collector: kBase is the first of the
	// DynamicWindowed client marks reserved for its figures, and schema
	// the one its metrics were last placed in (the loop's own; nil: the
	// runner's).
	dynamic bool
	kBase   int
	schema  *cache.Schema
	// readers are the clients that fetch the source, learnt by the loop
	// from the schema's arrivals (after: the next to read); readersMu
	// guards them against Forget and the reader_phases metric.
	readersMu sync.Mutex
	readers   readerSet
	after     uint64
	// published is when the loop's last sample was published, and
	// pubLog its last samples' times (the loop's own).
	published time.Time
	pubLog    publishLog
	// What the plan shows: periodic readers, the largest age of the
	// sample one was served (ms, 0 with none), extra samples taken.
	nReaders    atomic.Uint32
	readerAgeMS atomic.Int64
	extras      atomic.Uint64
	// fresh is the source's part in answering fetches with fresh samples
	// (fresh.go).
	fresh fetchFresh
}

// Runner runs every collector on its own ticker and publishes into the cache's front.
type Runner struct {
	log            zerolog.Logger
	schema         *cache.Schema
	front          *cache.Front
	entries        []*entry
	instances      *cache.Instances
	controlIndex   int
	defaultMS      atomic.Int64  // interval of collectors without their own
	startDefaultMS int64         // defaultMS at start-up, restored by a store of 0
	settingsMu     sync.Mutex    // one pmstore or reconfiguration at a time
	recorder       Recorder      // writes the history out on request (may be nil)
	staleIntervals atomic.Int64  // data older than this many intervals is withheld
	ids            *cache.IDMaps // instance id maps, saved after each sample
	pending        atomic.Int64  // collectors yet to finish their first sample
	ready          chan struct{} // closed when pending reaches zero
	history        time.Duration // how far back each source's history reaches
	budget         int64         // bytes all histories may hold together
	span           atomic.Int64  // the history actually kept, in ms: history or less
	budgetMu       sync.Mutex    // one re-share of the budget at a time
	costSum        float64       // the histories' costs per second as last budgeted (budgetMu)
	shortened      bool          // some history is kept shorter than history (budgetMu)
	reader         *reader       // computes the windowed metrics at read time
	nWindowed      int           // windowed metrics over all sources
	idleAfterMS    atomic.Int64  // unread this long, a source slows down; 0 never
	idleFactor     atomic.Int64  // by this factor
	readerPhases   atomic.Int64  // distinct phases a source samples at; 0: the fixed grid only
	started        time.Time     // reads are counted from here
	// Fetches answered with fresh samples (fresh.go): the bound and the
	// deadline in ns, each source's entry by source index, the fetches'
	// scratch, and what the self-metrics show.
	freshNS      atomic.Int64
	waitNS       atomic.Int64
	bySource     []*entry
	waits        sync.Pool
	fetchSampled atomic.Uint64 // fetches that had a source sampled
	fetchMisses  atomic.Uint64 // fetches that waited their deadline out
	ages         servedAges
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

// DefaultIdleFactor is how much less often an unread source samples.
const DefaultIdleFactor = 10

// DefaultHistory keeps 15 minutes of samples: enough for pmlogger's
// longest usual interval (10 minutes) with room to spare.
const DefaultHistory = 15 * time.Minute

// DefaultHistoryBudget bounds the memory of every source's history
// together: 15 minutes fit on a host of 64 CPUs and 256 disks (about 100
// MB); a larger host keeps a shorter history rather than more memory.
const DefaultHistoryBudget = 128 << 20

// DefaultStaleIntervals withholds data older than this many intervals.
const DefaultStaleIntervals = 5

// NewRunner prepares collectors to run on sched.
func NewRunner(log zerolog.Logger, cs []Collector, sched Schedule) *Runner {
	r := &Runner{log: log, ids: sched.IDs, history: sched.History, started: time.Now()}
	r.waits.New = func() any { return &fetchWait{} }
	r.staleIntervals.Store(int64(sched.StaleIntervals))
	r.setPacing(sched)
	if r.history <= 0 {
		r.history = DefaultHistory
	}
	r.budget = sched.HistoryBudget
	if r.budget <= 0 {
		r.budget = DefaultHistoryBudget
	}
	r.span.Store(r.history.Milliseconds())
	maxClients := sched.MaxClients
	if maxClients <= 0 {
		maxClients = DefaultMaxClients
	}
	r.reader = &reader{clients: newClients(0, maxClients)}
	defaultInterval, intervals := sched.Default, sched.Intervals
	r.defaultMS.Store(defaultInterval.Milliseconds())
	r.startDefaultMS = defaultInterval.Milliseconds()
	list := make([]cache.Instance, len(cs))
	for i, c := range cs {
		e := &entry{c: c, log: log.With().Str("collector", c.Name()).Logger(),
			wake: make(chan struct{}, 1), fresh: newFetchFresh()}
		e.paced, _ = c.(Paced)
		e.staller, _ = c.(interface{ Stalls() uint64 })
		iv, own := intervals[c.Name()]
		if own {
			e.startOwnMS = iv.Milliseconds()
			e.ownMS.Store(e.startOwnMS)
		} else {
			iv = defaultInterval
		}
		e.intervalMS.Store(iv.Milliseconds())
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
		e.kBase = k
		if _, e.dynamic = e.c.(Dynamic); e.dynamic {
			e.windowed = r.capWindowed(e, e.windowed)
		}
		src.Metrics = append([]cache.Desc(nil), src.Metrics...)
		for i := range e.windowed {
			wm := &e.windowed[i]
			wm.desc.Compute = r.reader.compute(e, k, wm, 0)
			src.Metrics = append(src.Metrics, wm.desc)
			k++
		}
		if e.dynamic {
			// Its figures' marks are reserved whatever it has now.
			src.Dynamic, k = true, e.kBase+DynamicWindowed
		}
		out = append(out, src)
	}
	r.nWindowed = k
	r.reader.clients.metrics = k
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
	r.reader.clients.Forget(client)
	for _, e := range r.entries {
		e.readersMu.Lock()
		e.readers.forget(client)
		e.readersMu.Unlock()
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
	r.bySource = make([]*entry, len(r.schema.Sources()))
	for _, e := range r.entries {
		if e.source, ok = r.schema.SourceIndex(e.c.Name()); !ok {
			return fmt.Errorf("schema has no source for collector %s", e.c.Name())
		}
		r.bySource[e.source] = e
		tracked := trackedOf(r.schema, e.source)
		depth := r.ringDepth(e, len(tracked))
		h := newHistory(r.schema, tracked, depth, e.derivedRates)
		h.reach(r.history, e.interval())
		h.indoms = r.schema.InDomsOf(e.source)
		h.windowed = e.windowed
		h.boundBy(e.c)
		e.histPtr.Store(h)
	}
	r.publishControl()
	front.SetFreshener(r)
	return nil
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

// ringDepth is how many samples e's history has room for: the grid's over
// the history at e's interval, ringSlack times over for the samples taken
// between; 2 with no figures to compute (uptime): no history kept.
func (r *Runner) ringDepth(e *entry, tracked int) int {
	if tracked == 0 {
		return 2
	}
	return (int(r.history/e.interval()) + 1) * ringSlack
}

// hist is the source's history: nil before the runner is attached.
func (e *entry) hist() *history { return e.histPtr.Load() }

func (e *entry) interval() time.Duration {
	return time.Duration(e.intervalMS.Load()) * time.Millisecond
}

// loop samples on the grid of the entry's interval, and between grid
// samples at the times its plan asks for. A sample that overruns its
// interval makes the ticks it covered be skipped and counted, never
// queued.
func (r *Runner) loop(ctx context.Context, e *entry) {
	timer := time.NewTimer(0) // the first sample at once, then on the grid
	// The second sample comes at the first grid point at least half an
	// interval after the first, so the first step is never a sliver.
	cd := cadence{next: aligned(time.Now().Add(e.interval()/2), e.interval()).Add(-e.interval())}
	cd.plan.phase = gridPhase(e.interval())
	defer timer.Stop()
	read := r.schema.ReadWake(e.source)
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
			cd.next = onGrid(time.Now().Add(e.interval()/2), e.interval(), cd.plan.phase%e.interval())
		case <-read:
			// A client reads a source that had slowed down: back to its
			// interval from the next grid point.
			if e.idle.Load() {
				r.setEntryIdle(e, false)
				cd.next = onGrid(time.Now(), e.interval(), cd.plan.phase%e.interval())
			}
		case <-e.fresh.demand:
			r.sampleForFetch(e)
		case <-timer.C:
			r.tick(e, &cd)
		}
		timer.Reset(time.Until(cd.due()))
	}
}

// tick takes the sample due (an extra one, or the grid's), learns from
// the fetches since the last, and plans the next.
func (r *Runner) tick(e *entry, cd *cadence) {
	planned := cd.due()
	if e.samples.Load() == 0 {
		planned = time.Time{} // the first sample is taken at once, planned at no time
	}
	if planned.Before(cd.next) && !planned.IsZero() {
		r.sampleOnce(e, planned, true)
		e.extras.Add(1)
	} else {
		if cd.atOnce {
			planned, cd.atOnce = time.Time{}, false
		}
		cd.last = time.Now()
		panicked := r.sampleOnce(e, planned, false)
		if e.samples.Load() == 1 && r.pending.Add(-1) == 0 {
			close(r.ready)
		}
		cd.next = r.schedule(e, cd.next, panicked)
		cd.backoff = panicked
	}
	now := time.Now()
	r.learnReaders(e, now)
	old := cd.plan.phase
	r.replan(e, cd, now)
	cd.regridIfMoved(old, e.interval(), now)
	cd.bridge(min(servedTolerance, e.interval()/4))
	cd.next = r.slowIfUnread(e, cd.next)
}

// learnReaders feeds the entry's readers the fetches of its source since
// the last call, each with the age of the sample it was served.
func (r *Runner) learnReaders(e *entry, now time.Time) {
	e.readersMu.Lock()
	defer e.readersMu.Unlock()
	e.after = r.schema.Arrivals(e.source, e.after, func(client int32, at time.Time) {
		age, known := e.pubLog.servedAt(at)
		e.readers.arrive(client, at, age, known)
	})
	e.readers.expire(now)
}

// replan works out the grid's phase and the extra samples from the
// entry's readers, and what the self-metrics show of them. A source
// slowed down for want of readers, or reader_phases 0, samples on the
// fixed grid.
func (r *Runner) replan(e *entry, cd *cadence, now time.Time) {
	e.readersMu.Lock()
	defer e.readersMu.Unlock()
	bound := int(r.readerPhases.Load())
	if e.idle.Load() {
		bound = 0
	}
	e.readers.plan(planInput{interval: e.interval(), delay: e.pubLog.delay(), bound: bound, now: now}, &cd.plan)
	e.nReaders.Store(uint32(e.readers.periodicCount()))
	age, _ := e.readers.oldestServed()
	e.readerAgeMS.Store(age.Milliseconds())
}

// slowIfUnread returns when the source samples next: next (its next tick
// at full rate), or, while no client reads it, the first point at or
// after next of the grid of its slow interval (idleFactor intervals).
// Counting the slow interval from whenever the source went unread gave
// each source a phase of its own, and an unread agent woke three or four
// times every ten seconds instead of once: on the slow grid, as on the
// full-rate one, every source due at an instant wakes with the others.
func (r *Runner) slowIfUnread(e *entry, next time.Time) time.Time {
	if !e.idle.Load() {
		return next
	}
	return aligned(next.Add(-time.Nanosecond), time.Duration(r.idleFactor.Load())*e.interval())
}

// updateIdle decides, as a sample starts, whether the source has
// gone unread for idleAfter (and samples idleFactor times less often from
// now) or is read again.
func (r *Runner) updateIdle(e *entry, now time.Time) {
	after := time.Duration(r.idleAfterMS.Load()) * time.Millisecond
	unread := false
	if after > 0 && r.schema != nil {
		last := r.schema.LastRead(e.source)
		if last.Before(r.started) {
			last = r.started
		}
		unread = now.Sub(last) >= after
	}
	if unread != e.idle.Load() {
		r.setEntryIdle(e, unread)
	}
}

// setEntryIdle marks a source slowed down or not, where reads see it.
func (r *Runner) setEntryIdle(e *entry, idle bool) {
	e.idle.Store(idle)
	r.schema.SetIdle(e.source, idle)
	e.log.Debug().Bool("idle", idle).Msg("sampling interval changed: no client reads this source")
}

// setPacing takes the settings of sched that change when a source samples
// beyond its interval: the idle back-off and the reader phases.
func (r *Runner) setPacing(sched Schedule) {
	r.idleAfterMS.Store(sched.IdleAfter.Milliseconds())
	f := sched.IdleFactor
	if f < 2 {
		f = DefaultIdleFactor
	}
	r.idleFactor.Store(int64(f))
	r.readerPhases.Store(int64(max(0, sched.ReaderPhases)))
	r.freshNS.Store(int64(max(0, sched.FreshWithin)))
	wait := sched.FetchWait
	if wait <= 0 {
		wait = DefaultFetchWait
	}
	r.waitNS.Store(int64(wait))
}

// pace tells a Paced collector how much slower than its interval it
// samples, when that changed since its last sample.
func (r *Runner) pace(e *entry) {
	if e.paced == nil {
		return
	}
	f := 1
	if e.idle.Load() {
		f = int(r.idleFactor.Load())
	}
	if f != e.pace {
		e.paced.Pace(f)
		e.pace = f
	}
}

// effectiveInterval is how often the source samples now: its interval,
// or idleFactor times it while no client reads it.
func (r *Runner) effectiveInterval(e *entry) time.Duration {
	if e.idle.Load() {
		return time.Duration(r.idleFactor.Load()) * e.interval()
	}
	return e.interval()
}

// aligned returns the first grid point of interval iv after t: a multiple
// of iv plus gridPhase(iv). Every collector ticks on the same grid, so the
// collectors sharing an interval (and, every few seconds, all of them)
// wake together: waking an idle Go process costs far more CPU than the
// sample of a small /proc file, so one wake-up a second instead of one per
// collector is most of the background cost saved.
func aligned(t time.Time, iv time.Duration) time.Time {
	return onGrid(t, iv, gridPhase(iv))
}

// gridPhase puts samples half a second after each whole second (half the
// interval when that is under a second), while no periodic reader's
// fetches set the phase (phase.go): clients that fetch on a
// wall-clock grid (pmrep -A, pmie, cron jobs) fetch at whole seconds, and a
// sample taken at the very moment a fetch arrives is a coin toss between
// a repeated counter and a doubled step. Half a second for every interval
// of a second or more keeps the 5 s and 10 s collectors waking with the
// 1 s ones.
func gridPhase(iv time.Duration) time.Duration {
	return min(iv, time.Second) / 2
}

// maxBackoff caps how long a collector that keeps panicking is rested.
const maxBackoff = 5 * time.Minute

// schedule returns when e samples next. Normally that is one interval after
// the last tick, skipping (and counting) ticks a long sample overran. After
// a panic the collector is restarted with exponential backoff instead, so
// a source that crashes its parser every time costs little.
func (r *Runner) schedule(e *entry, last time.Time, panicked bool) time.Time {
	now := time.Now()
	if panicked {
		e.panicStreak = min(e.panicStreak+1, 16)
		wait := min(e.interval()<<e.panicStreak, maxBackoff)
		e.log.Warn().Dur("backoff", wait).Int("consecutive_panics", e.panicStreak).Msg("collector restarts after backoff")
		return now.Add(wait)
	}
	e.panicStreak = 0
	next := last.Add(e.interval())
	for !next.After(now) {
		next = next.Add(e.interval())
		e.skipped.Add(1)
	}
	return next
}

// sampleOnce runs one sample, planned at planned (zero: at once; extra: a
// sample between grid samples, for a reader), publishes it, and updates
// the self-metrics. A panic in a collector is recovered and counted: the
// agent keeps serving.
func (r *Runner) sampleOnce(e *entry, planned time.Time, extra bool) (panicked bool) {
	start := time.Now()
	panicsBefore := e.panics.Load()
	err := r.collect(e, start, extra)
	e.durationUS.Store(time.Since(start).Microseconds())
	e.samples.Add(1)
	switch {
	case isPartial(err):
		e.errors.Add(1)
		e.lastOKms.Store(start.UnixMilli())
		e.warnOnce(err, "part of the sample failed; the rest is published")
	case err != nil:
		e.errors.Add(1)
		e.warnOnce(err, "sample failed")
	default:
		e.lastErr = ""
		e.lastOKms.Store(start.UnixMilli())
	}
	if err == nil || isPartial(err) {
		e.pubLog.add(planned, start, e.published)
	}
	e.fresh.sampled(start, time.Since(start))
	return e.panics.Load() != panicsBefore
}

// collect takes one sample at now and publishes it; extra marks a sample
// between grid samples, which peaks take no step from.
func (r *Runner) collect(e *entry, now time.Time, extra bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			e.panics.Add(1)
			err = fmt.Errorf("collector panicked: %v\n%s", p, debug.Stack())
		}
	}()
	if e.dynamic {
		r.refresh(e, now)
	}
	if e.builder == nil {
		e.builder = r.entrySchema(e).NewBuilder(e.source, now)
		if e.dynamic {
			// After a refused change (refresh) the collector sets metrics
			// the schema does not have: they are left out, not the sample.
			e.builder.SkipUnknown()
		}
	}
	b := e.builder
	b.Reset(now)
	// Whether the source is read is decided before it samples, whatever
	// the sample gives: an unread source whose files fail (no NUMA nodes
	// in sysfs, no NFS) slows down too, rather than retrying at full rate
	// for good, and a Paced collector hears its pace in this very sample.
	r.updateIdle(e, time.Now())
	r.pace(e)
	sampleErr := e.c.Sample(b, now)
	if sampleErr != nil && !isPartial(sampleErr) {
		return sampleErr
	}
	defer func() {
		if err == nil {
			err = sampleErr // published what it had; the failure still counts
		}
	}()
	if n, why := b.Skipped(); n > 0 {
		e.warnEvery(fmt.Errorf("%d values left out: %w", n, why), "values of metrics the schema does not hold were left out")
	}
	part, err := b.Part()
	if err != nil {
		return err
	}
	// Staleness counts in the intervals the source samples at from now:
	// one slowed down for want of readers is not stale between samples.
	part.StaleAfter = time.Duration(r.staleIntervals.Load()) * r.effectiveInterval(e)
	part.Seq = e.hist().add(part, now, extra)
	if cost := e.hist().perSecond(r.effectiveInterval(e)); math.Abs(cost-e.budgeted) > e.budgeted/8 {
		// Shares change only when some source's cost does: most samples,
		// repeated or alike, leave the budget as it was.
		r.rebudget(e, cost)
	}
	r.front.Publish(e.source, part)
	e.published = time.Now()
	if r.ids != nil {
		r.ids.SaveAll(now) // new instance ids, written once per sample
	}
	e.resets.Store(e.hist().resetsOf.Load())
	if e.staller != nil {
		e.stalls.Store(e.staller.Stalls())
	}
	return nil
}

// rebudget records e's new history cost and shares the memory budget
// again, unless every history fits in it whole, as it did before. Most
// hosts never come near the budget, yet their costs move most while the
// histories fill after start (the average over the samples held falls as
// repeats come in), which made a re-share every few samples for nothing.
// The sum is of the costs last budgeted, each within an eighth of its
// source's cost now (at most 9/8 of it): the whole histories fit if
// 9/8 of the sum does.
func (r *Runner) rebudget(e *entry, cost float64) {
	r.budgetMu.Lock()
	defer r.budgetMu.Unlock()
	if e.hist().depth() > 2 {
		r.costSum += cost - e.budgeted
	}
	e.budgeted = cost
	if !r.shortened && r.costSum*9/8*r.history.Seconds() <= float64(r.budget) {
		return
	}
	r.shortened = r.budgetHistory() < r.history
}

// budgetHistory shares the memory budget among the histories, max-min
// fairly: each source keeps the configured span if its share of the
// budget holds it, and what a narrow source does not need goes to the
// wide ones. A source as wide as a large host's per-CPU interrupt counts
// then gets a shorter history, while the one-second CPU, disk and network
// sources keep theirs. Samples past a shorter span are dropped as new
// ones come. It returns the shortest span given.
func (r *Runner) budgetHistory() time.Duration {
	var live []*entry
	var costs []float64 // bytes a second of each live source's history
	for _, e := range r.entries {
		if e.hist() != nil && e.hist().depth() > 2 {
			live = append(live, e)
			costs = append(costs, e.hist().perSecond(r.effectiveInterval(e)))
		}
	}
	spans := FairSpans(costs, float64(r.budget), r.history)
	shortest := r.history
	for i, e := range live {
		shortest = min(shortest, spans[i])
		// A whole span is kept by time (history.reach); a shorter one by
		// the count of samples its share of the budget holds.
		keep := int64(e.hist().depth())
		if spans[i] < r.history {
			rate := e.hist().samplesPerSecond(r.effectiveInterval(e))
			keep = min(keep, max(2, int64(spans[i].Seconds()*rate)+1))
		}
		e.hist().keep.Store(keep)
	}
	if old := r.span.Swap(shortest.Milliseconds()); old/1000 != shortest.Milliseconds()/1000 && shortest < r.history {
		r.log.Debug().Dur("shortest_history", shortest).Int64("budget", r.budget).Msg("history shortened to fit its memory budget")
	}
	return shortest
}

// FairSpans gives each source (costs in bytes per second of history) the
// span it may keep within budget bytes, at most history: the sources
// that need least are served first and in full, each of the others gets
// an equal share of what remains.
func FairSpans(costs []float64, budget float64, history time.Duration) []time.Duration {
	spans := make([]time.Duration, len(costs))
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(costs[a], costs[b]) })
	left := budget
	for k, i := range order {
		need := costs[i] * history.Seconds()
		share := left / float64(len(order)-k)
		if costs[i] <= 0 || need <= share {
			spans[i] = history
			left -= need
			continue
		}
		spans[i] = time.Duration(share / costs[i] * float64(time.Second))
		left -= share
	}
	return spans
}

// PartialError is a collector's report that some of its sources failed
// while others gave values: what was set is published, and the failure is
// counted and logged. A collector whose files fail independently (swap's
// vmstat, meminfo and swaps) returns one, so one bad file costs only its
// own metrics.
type PartialError struct{ Err error }

func (e *PartialError) Error() string { return e.Err.Error() }
func (e *PartialError) Unwrap() error { return e.Err }

// isPartial reports whether err is or wraps a PartialError. It is a
// function of its own because the target errors.As is given escapes:
// declared in the sampling path, it was an allocation every sample,
// error or none.
func isPartial(err error) bool {
	if err == nil {
		return false
	}
	var p *PartialError
	return errors.As(err, &p)
}

// Partial wraps err, if any, as a PartialError.
func Partial(err error) error {
	if err == nil {
		return nil
	}
	return &PartialError{Err: err}
}

// PartialOf is the result of a sample that read sources files, errs of
// which failed: nil when none did, a plain error when all did (nothing
// was published), a PartialError otherwise.
func PartialOf(errs []error, sources int) error {
	if len(errs) > 0 && len(errs) >= sources {
		return errors.Join(errs...)
	}
	return Partial(errors.Join(errs...))
}

// warnEvery logs a condition of the source's metrics (a refused change,
// figures past their bound, values left out) at most once a minute for
// each msg: these persist across samples that succeed, which clear
// warnOnce's memory.
func (e *entry) warnEvery(err error, msg string) {
	if at, ok := e.warned[msg]; ok && time.Since(at) < time.Minute {
		return
	}
	if e.warned == nil {
		e.warned = map[string]time.Time{}
	}
	e.warned[msg] = time.Now()
	e.log.Warn().Err(err).Msg(msg)
}

// warnOnce logs a failure when it differs from the last one logged, or a
// minute after: a file missing for good is said once a minute, not once a
// sample.
func (e *entry) warnOnce(err error, msg string) {
	text := err.Error()
	if text == e.lastErr && time.Since(e.lastErrAt) < time.Minute {
		return
	}
	e.lastErr, e.lastErrAt = text, time.Now()
	e.log.Warn().Err(err).Msg(msg)
}
