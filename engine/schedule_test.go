package engine

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunnerSkipsOverrunTicks: a sample that outlasts its interval does not
// queue ticks; the missed ones are counted, and the loop stops with ctx.
// The schedule's clock is moved 450 ms on while the first sample is
// blocked: the ticks it covered are decided by that clock, not by how
// long the test sleeps.
func TestRunnerSkipsOverrunTicks(t *testing.T) {
	c := &scripted{name: "s", block: make(chan struct{}), entered: make(chan struct{}, 1)}
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	var ahead atomic.Int64 // how far the schedule's clock runs ahead of the wall clock
	r.now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	<-c.entered
	ahead.Store(int64(450 * time.Millisecond)) // four or five ticks pass while blocked
	close(c.block)
	<-r.Ready() // the first sample is done, and the next scheduled
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The second tick is due at most 150 ms after the loop starts, so at
	// least the ticks at 150, 250, 350 and 450 ms have passed.
	if skipped := controlValue(t, st, ctlSkipped); skipped < 4 {
		t.Errorf("skipped %d ticks, want at least 4", skipped)
	}
}

// TestRunnerBacksOffAfterPanics: a collector that panics every time is
// restarted with exponential backoff rather than every tick, and at its
// interval once it samples again. The loop's ticks are taken one by one
// on a clock the test sets to when each is due.
func TestRunnerBacksOffAfterPanics(t *testing.T) {
	c := &scripted{name: "s"}
	c.panics.Store(true)
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	now := time.Now()
	r.now = func() time.Time { return now }
	e, cd := r.entries[0], cadence{next: now}
	for k := 1; k <= 4; k++ {
		r.tick(e, &cd)
		if wait := cd.next.Sub(now); wait != 100*time.Millisecond<<k || !cd.backoff {
			t.Errorf("panic %d: next try in %v (backoff %v), want %v", k, wait, cd.backoff, 100*time.Millisecond<<k)
		}
		now = cd.next // the loop wakes when the backoff ends
	}
	if p, calls := controlValue(t, st, ctlPanics), c.calls.Load(); p != 4 || calls != 4 {
		t.Errorf("panics %d, tries %d, want 4 and 4", p, calls)
	}
	c.panics.Store(false)
	r.tick(e, &cd)
	if wait := cd.next.Sub(now); wait != 100*time.Millisecond || cd.backoff {
		t.Errorf("after a good sample: next in %v (backoff %v), want the interval", wait, cd.backoff)
	}
}

// The grid is half a second past each whole second, away from where
// wall-clock clients fetch; a 5 s or 10 s collector's points are 1 s ones.
func TestGridAwayFromWholeSeconds(t *testing.T) {
	base := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		t    time.Time
		iv   time.Duration
		want time.Time
	}{
		{base.Add(200 * time.Microsecond), time.Second, base.Add(500 * time.Millisecond)},
		{base.Add(500 * time.Millisecond), time.Second, base.Add(1500 * time.Millisecond)},
		{base.Add(200 * time.Microsecond), 10 * time.Second, base.Add(500 * time.Millisecond)},
		{base.Add(time.Second), 5 * time.Second, base.Add(5500 * time.Millisecond)},
		{base.Add(time.Millisecond), 500 * time.Millisecond, base.Add(250 * time.Millisecond)},
	}
	for _, c := range cases {
		if got := aligned(c.t, c.iv); !got.Equal(c.want) {
			t.Errorf("aligned(%s, %v) = %s, want %s", c.t.Format("15:04:05.000000"), c.iv,
				got.Format("15:04:05.000000"), c.want.Format("15:04:05.000000"))
		}
	}
}

// The loop samples an extra sample when one is due before the grid's,
// and the grid's when it is due: only the grid advances the cadence.
func TestTickTakesExtraThenGridSamples(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	e := g.r.entries[0]
	r := g.r
	r.SampleAll() // the first sample
	now := time.Now()
	cd := cadence{next: now.Add(time.Hour), last: now}
	cd.plan.phase = gridPhase(time.Second)
	cd.plan.extras = []time.Time{now.Add(-time.Millisecond)}
	r.tick(e, &cd)
	if e.follow.extras.Load() != 1 || e.stats.samples.Load() != 2 || !cd.next.Equal(now.Add(time.Hour)) {
		t.Fatalf("after an extra: %d extras, %d samples, next in %v",
			e.follow.extras.Load(), e.stats.samples.Load(), cd.next.Sub(now))
	}
	if s := e.hist().newest(); s == nil || !s.extra {
		t.Error("the extra sample is not marked in the history")
	}
	cd.next = now.Add(-time.Millisecond)
	r.tick(e, &cd)
	if e.follow.extras.Load() != 1 || e.stats.samples.Load() != 3 || !cd.next.After(now) {
		t.Errorf("after a grid sample: %d extras, %d samples, next %v",
			e.follow.extras.Load(), e.stats.samples.Load(), cd.next.Sub(now))
	}
	if s := e.hist().newest(); s == nil || s.extra {
		t.Error("the grid sample is marked extra")
	}
}
