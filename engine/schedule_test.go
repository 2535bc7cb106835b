package engine

import (
	"context"
	"testing"
	"time"
)

// TestRunnerSkipsOverrunTicks: a sample that outlasts its interval does not
// queue ticks; the missed ones are counted, and the loop stops with ctx.
func TestRunnerSkipsOverrunTicks(t *testing.T) {
	c := &scripted{name: "s", block: make(chan struct{})}
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	for c.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(450 * time.Millisecond) // about four ticks pass while blocked
	close(c.block)
	for controlValue(t, st, ctlSamples) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if skipped := controlValue(t, st, ctlSkipped); skipped < 2 {
		t.Errorf("skipped %d ticks, want at least 2", skipped)
	}
}

// TestRunnerBacksOffAfterPanics: a collector that panics every time is
// restarted with exponential backoff rather than every tick.
func TestRunnerBacksOffAfterPanics(t *testing.T) {
	c := &scripted{name: "s"}
	c.panics.Store(true)
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	time.Sleep(time.Second) // ten ticks; with backoff 100<<1, <<2, <<3: four tries at most
	cancel()
	<-done
	calls := c.calls.Load()
	if calls < 2 || calls > 5 {
		t.Errorf("%d tries in 1 s at a 100 ms interval, want 2..5 with backoff", calls)
	}
	if p := controlValue(t, st, ctlPanics); p != uint64(calls) {
		t.Errorf("panics %d, tries %d", p, calls)
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
		t.Fatalf("after an extra: %d extras, %d samples, next in %v", e.follow.extras.Load(), e.stats.samples.Load(), cd.next.Sub(now))
	}
	if s := e.hist().newest(); s == nil || !s.extra {
		t.Error("the extra sample is not marked in the history")
	}
	cd.next = now.Add(-time.Millisecond)
	r.tick(e, &cd)
	if e.follow.extras.Load() != 1 || e.stats.samples.Load() != 3 || !cd.next.After(now) {
		t.Errorf("after a grid sample: %d extras, %d samples, next %v", e.follow.extras.Load(), e.stats.samples.Load(), cd.next.Sub(now))
	}
	if s := e.hist().newest(); s == nil || s.extra {
		t.Error("the grid sample is marked extra")
	}
}
