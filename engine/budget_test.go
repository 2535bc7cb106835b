package engine

import (
	"math"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Past its memory budget the history is shortened: older samples are
// dropped and a client whose mark is older starts from the oldest kept.
func TestHistoryBudget(t *testing.T) {
	// A sample of the script source holds 4 values: 32 + 96 bytes. The
	// samples share one layout of 160 bytes, which the cost a second
	// spreads over the samples held: 900 bytes hold five samples, 800.
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, HistoryBudget: 900})
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count")
	for k := 2; k <= 20; k++ {
		g.sample(at(k), steady(k))
	}
	h := g.r.entries[0].hist()
	if n := h.held(); n != 5 {
		t.Errorf("%d samples held, want 5 (4 s of budget + 1)", n)
	}
	if b := h.bytes.Load(); b > 900 {
		t.Errorf("history holds %d bytes, over its budget", b)
	}
	if h.at(15) != nil || h.at(16) == nil {
		t.Error("samples older than the kept span are still served")
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*400-10*16*16)/4)
	if got := g.fetch(1, "hostcache.control.history")[cache.InstNone]; got != 4 {
		t.Errorf("control.history = %v, want the 4 s the budget allows", got)
	}
}

// A history shortened to fit the budget gets its whole span back when
// the costs fall (here the budget grows in its stead) and the next change
// of cost re-shares; within an ample budget nothing is re-shared at all.
func TestHistoryBudgetRestored(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, HistoryBudget: 128 * 5})
	for k := 0; k <= 20; k++ {
		g.sample(at(k), steady(k))
	}
	e := g.r.entries[0]
	if !g.r.budget.shortened || e.hist().keep.Load() >= int64(e.hist().depth()) {
		t.Fatalf("history not shortened past its budget (keep %d of %d)", e.hist().keep.Load(), e.hist().depth())
	}
	g.r.budget.bytes = 1 << 30
	g.r.budget.rebudget(g.r.entries, e, e.budget.cost*2)
	whole := e.hist().keep.Load() == int64(e.hist().depth())
	if g.r.budget.shortened || !whole || g.r.budget.span.Load() != time.Minute.Milliseconds() {
		t.Errorf("history not restored within an ample budget: keep %d of %d, span %d ms",
			e.hist().keep.Load(), e.hist().depth(), g.r.budget.span.Load())
	}
	g.r.budget.span.Store(1) // a re-share would set it again
	for k := 21; k <= 40; k++ {
		// Repeats: the cost per sample held falls with each, as after start.
		g.sample(at(k), steady(21))
	}
	if g.r.budget.span.Load() != 1 {
		t.Error("the budget was shared again although every history fits")
	}
}

// The budget is shared max-min fairly: sources that need less than an
// equal share keep the whole history, and the widest gets what is left.
func TestFairSpans(t *testing.T) {
	const h = 900 * time.Second
	// Two narrow sources (1 KB/s, 2 KB/s: 0.9 and 1.8 MB for 900 s) and a
	// wide one (1 MB/s) within 10 MB: the narrow ones keep 900 s, the
	// wide one 10 - 2.7 = 7.3 MB, 7.3 s.
	spans := FairSpans([]float64{1e6, 1e3, 2e3}, 10e6, h)
	if spans[1] != h || spans[2] != h {
		t.Errorf("narrow sources keep %v and %v, want %v", spans[1], spans[2], h)
	}
	if got := spans[0].Seconds(); math.Abs(got-7.3) > 0.01 {
		t.Errorf("the wide source keeps %.2f s, want 7.3", got)
	}
	// Everything fits: every source keeps the whole history.
	for i, s := range FairSpans([]float64{10, 20}, 1e9, h) {
		if s != h {
			t.Errorf("source %d keeps %v within an ample budget", i, s)
		}
	}
	// Two equal wide sources share alike.
	if s := FairSpans([]float64{1e6, 1e6}, 10e6, h); s[0] != s[1] || s[0] != 5*time.Second {
		t.Errorf("equal sources keep %v", s)
	}
}
