package engine

import (
	"testing"
	"time"
)

// Samples taken between grid samples (for fetches, for readers' phases)
// do not shorten the history: a client whose window began a minute ago
// still gets its rate over that whole minute, and samples older than the
// history's span go.
func TestExtraSamplesKeepTheHistorySpan(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, MaxClients: 8})
	e := g.r.entries[0]
	extra := func(at time.Time, k int) {
		g.src.step, g.now = steady(k), at
		if err := g.r.collect(e, at, true); err != nil {
			t.Fatal(err)
		}
	}
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count") // client 1's window starts at 1 s
	for k := 2; k <= 61; k++ {
		// Two samples for fetches inside each second, at the counters of
		// the second before.
		extra(at(k-1).Add(300*time.Millisecond), k-1)
		extra(at(k-1).Add(700*time.Millisecond), k-1)
		g.sample(at(k), steady(k))
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*61*61-10*1*1)/60)
	for k := 62; k <= 130; k++ {
		extra(at(k-1).Add(500*time.Millisecond), k-1)
		g.sample(at(k), steady(k))
	}
	h := e.hist()
	oldest := h.at(h.oldest.Load())
	if oldest == nil {
		t.Fatal("no oldest sample")
	}
	if age := g.now.Sub(oldest.at); age > time.Minute+500*time.Millisecond || age < time.Minute {
		t.Errorf("the oldest sample kept is %v old, want a minute and at most half an interval", age)
	}
	if n := h.held(); n != 122 {
		t.Errorf("%d samples held, want the 122 of a minute and half a second at two a second", n)
	}
	if got := h.samplesPerSecond(time.Second); got < 1.9 || got > 2.1 {
		t.Errorf("measured %v samples a second, want 2", got)
	}
}
