package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// intervals are the runner's interval settings: the default interval of
// collectors without their own, and how many intervals data stays
// servable. pmstore and a reconfiguration change them.
type intervals struct {
	mu             sync.Mutex   // one pmstore or reconfiguration at a time
	defaultMS      atomic.Int64 // interval of collectors without their own
	startDefaultMS int64        // defaultMS at start-up, restored by a store of 0
	staleIntervals atomic.Int64 // data older than this many intervals is withheld
}

// entrySchedule is when one collector samples: the interval in force and
// where it comes from, and the rest a collector that keeps panicking is
// given.
type entrySchedule struct {
	intervalMS atomic.Int64  // in force: ownMS, or the runner's default
	ownMS      atomic.Int64  // the collector's own interval; 0 follows the default
	startOwnMS int64         // ownMS at start-up, restored by a store of 0
	wake       chan struct{} // the interval changed: reschedule now
	// panicStreak counts consecutive panics; only the entry's loop uses it.
	panicStreak int
}

// init sets the interval of the collector named name from sched: its own
// when sched gives one, the default otherwise.
func (s *entrySchedule) init(sched Schedule, name string) {
	s.wake = make(chan struct{}, 1)
	iv, own := sched.Intervals[name]
	if own {
		s.startOwnMS = iv.Milliseconds()
		s.ownMS.Store(s.startOwnMS)
	} else {
		iv = sched.Default
	}
	s.intervalMS.Store(iv.Milliseconds())
}

func (s *entrySchedule) interval() time.Duration {
	return time.Duration(s.intervalMS.Load()) * time.Millisecond
}

// follow sets the interval in force from the own one or the default, and
// wakes the loop when it changed.
func (s *entrySchedule) follow(defaultMS int64) {
	ms := s.ownMS.Load()
	if ms == 0 {
		ms = defaultMS
	}
	if s.intervalMS.Swap(ms) == ms {
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
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
		case <-e.sched.wake:
			cd.next = onGrid(time.Now().Add(e.interval()/2), e.interval(), cd.plan.phase%e.interval())
		case <-read:
			// A client reads a source that had slowed down: back to its
			// interval from the next grid point.
			if e.idle.slowed.Load() {
				e.setIdle(r.schema, false)
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
	if e.stats.samples.Load() == 0 {
		planned = time.Time{} // the first sample is taken at once, planned at no time
	}
	if planned.Before(cd.next) && !planned.IsZero() {
		r.sampleOnce(e, planned, true)
		e.follow.extras.Add(1)
	} else {
		if cd.atOnce {
			planned, cd.atOnce = time.Time{}, false
		}
		cd.last = time.Now()
		panicked := r.sampleOnce(e, planned, false)
		if e.stats.samples.Load() == 1 && r.pending.Add(-1) == 0 {
			close(r.ready)
		}
		cd.next = e.schedule(cd.next, r.now(), panicked)
		cd.backoff = panicked
	}
	now := time.Now()
	e.follow.learn(r.schema, e.source, now)
	old := cd.plan.phase
	e.follow.replan(e.interval(), phaseBound(r.readerPhases.Load(), e), now, &cd.plan)
	cd.regridIfMoved(old, e.interval(), now)
	cd.bridge(min(servedTolerance, e.interval()/4))
	cd.next = r.idle.slowIfUnread(e, cd.next)
}

// maxBackoff caps how long a collector that keeps panicking is rested.
const maxBackoff = 5 * time.Minute

// schedule returns when e samples next, its last tick at last and the
// time now. Normally that is one interval after the last tick, skipping
// (and counting) ticks a long sample overran. After a panic the collector
// is restarted with exponential backoff instead, so a source that crashes
// its parser every time costs little.
func (e *entry) schedule(last, now time.Time, panicked bool) time.Time {
	if panicked {
		e.sched.panicStreak = min(e.sched.panicStreak+1, 16)
		wait := min(e.interval()<<e.sched.panicStreak, maxBackoff)
		e.log.Warn().Dur("backoff", wait).Int("consecutive_panics", e.sched.panicStreak).
			Msg("collector restarts after backoff")
		return now.Add(wait)
	}
	e.sched.panicStreak = 0
	next := last.Add(e.interval())
	for !next.After(now) {
		next = next.Add(e.interval())
		e.stats.skipped.Add(1)
	}
	return next
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
