package engine

import (
	"math"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A test source with a millisecond counter and a per-instance count counter.
var (
	testMS    = Metric("hostcache.test.ms", 9, 0, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, cache.InDomNone)
	testCount = Metric("hostcache.test.count", 9, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, 9)
)

// rateRig drives a rates directly, one sample at a time.
type rateRig struct {
	t     *testing.T
	r     *Rates
	store *cache.Front
}

// Two sample times two seconds apart.
var (
	t0 = time.Unix(1795320600, 0)
	t1 = t0.Add(2 * time.Second)
)

func newRateRig(t *testing.T) *rateRig {
	schema, err := cache.NewSchema(cache.Source{
		Name:    "test",
		Metrics: WithRates([]cache.Desc{testMS, testCount}),
		InDoms:  []cache.InDomDesc{{ID: 9, Name: "test"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &rateRig{t: t, r: NewRates(), store: cache.NewFront(schema)}
}

// sample publishes ms and the count instances (inst -> value) at now.
func (g *rateRig) sample(now time.Time, ms uint64, counts map[uint32]uint64) {
	g.t.Helper()
	b := g.store.Schema().NewBuilder(0, now)
	g.r.Begin(now)
	g.r.Counter(b, &testMS, cache.InstNone, ms)
	for inst, v := range counts {
		g.r.Counter(b, &testCount, inst, v)
	}
	p, err := b.Part()
	if err != nil {
		g.t.Fatal(err)
	}
	g.store.Publish(0, p)
	g.r.Commit()
}

// rate returns the published rate of d's instance inst, if any.
func (g *rateRig) rate(d cache.Desc, inst uint32) (float64, bool) {
	rd, _ := g.store.Schema().Desc(RateID(d.ID))
	for _, v := range g.store.Load().Values(rd) {
		if v.Inst == inst {
			return v.Double(), true
		}
	}
	return 0, false
}

func (g *rateRig) wantRate(d cache.Desc, inst uint32, want float64) {
	g.t.Helper()
	got, ok := g.rate(d, inst)
	if !ok || math.Abs(got-want) > 1e-9 {
		g.t.Errorf("rate of %s[%d] = %v, %v; want %v", d.Name, inst, got, ok, want)
	}
}

func (g *rateRig) wantNoRate(d cache.Desc, inst uint32) {
	g.t.Helper()
	if got, ok := g.rate(d, inst); ok {
		g.t.Errorf("rate of %s[%d] = %v, want none", d.Name, inst, got)
	}
}

func TestRatesFirstSampleHasNone(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, map[uint32]uint64{7: 10})
	g.wantNoRate(testMS, cache.InstNone)
	g.wantNoRate(testCount, 7)
}

func TestRatesPerSecond(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, map[uint32]uint64{7: 10})
	g.sample(t1, 3000, map[uint32]uint64{7: 30, 8: 5})
	g.wantRate(testMS, cache.InstNone, 1.0) // 2000 ms over 2 s: 1.0 s/s
	g.wantRate(testCount, 7, 10)            // 20 over 2 s
	g.wantNoRate(testCount, 8)              // new instance: no previous value
	if g.r.Resets != 0 {
		t.Errorf("resets = %d, want 0", g.r.Resets)
	}
	// Over a 500 ms interval: 30 -> 31 is 2/s.
	g.sample(t1.Add(500*time.Millisecond), 3000, map[uint32]uint64{7: 31, 8: 5})
	g.wantRate(testCount, 7, 2)
	g.wantRate(testCount, 8, 0)
}

func TestRatesBackwards(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, map[uint32]uint64{7: 10, 8: 10})
	g.sample(t1, 999, map[uint32]uint64{7: 9, 8: 12})
	g.wantNoRate(testMS, cache.InstNone)
	g.wantNoRate(testCount, 7)
	g.wantRate(testCount, 8, 1) // the other instance is unaffected
	if g.r.Resets != 2 {
		t.Errorf("resets = %d, want 2", g.r.Resets)
	}
	// The reset value is the new base.
	g.sample(t1.Add(2*time.Second), 1999, map[uint32]uint64{7: 19, 8: 12})
	g.wantRate(testMS, cache.InstNone, 0.5) // 1000 ms over 2 s
	g.wantRate(testCount, 7, 5)
	if g.r.Resets != 2 {
		t.Errorf("resets = %d, want still 2", g.r.Resets)
	}
}

func TestRatesNoInterval(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, nil)
	g.sample(t0, 2000, nil) // same instant: no interval to divide by
	g.wantNoRate(testMS, cache.InstNone)
	if _, ok := g.r.Interval(); ok {
		t.Error("interval() reported a zero interval as usable")
	}
}

func TestRatesDeltaAndInterval(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, map[uint32]uint64{7: 10})
	b := g.store.Schema().NewBuilder(0, t1)
	g.r.Begin(t1)
	g.r.Counter(b, &testMS, cache.InstNone, 1500)
	g.r.Counter(b, &testCount, 7, 4)
	if d, ok := g.r.Delta(testMS.ID, cache.InstNone); !ok || d != 500 {
		t.Errorf("delta = %d, %v; want 500", d, ok)
	}
	if _, ok := g.r.Delta(testCount.ID, 7); ok {
		t.Error("delta of a counter that went backwards")
	}
	if _, ok := g.r.Delta(testCount.ID, 8); ok {
		t.Error("delta of an unknown instance")
	}
	if s, ok := g.r.Interval(); !ok || s != 2 {
		t.Errorf("interval = %v, %v; want 2", s, ok)
	}
}

// Without commit (a failed sample) the previous sample stays the base.
func TestRatesUncommitted(t *testing.T) {
	g := newRateRig(t)
	g.sample(t0, 1000, nil)
	b := g.store.Schema().NewBuilder(0, t0.Add(time.Second))
	g.r.Begin(t0.Add(time.Second))
	g.r.Counter(b, &testMS, cache.InstNone, 1800) // never committed
	g.sample(t1, 3000, nil)
	g.wantRate(testMS, cache.InstNone, 1.0) // (3000 - 1000) ms over 2 s
}

// Instances that come, go and change order between samples find their own
// previous values, not the ones at the same position last time; so do
// deltas asked for long after their counter was published.
func TestRatesFollowKeysAcrossReordering(t *testing.T) {
	g := newRateRig(t)
	ordered := func(now time.Time, pairs ...uint64) {
		t.Helper()
		b := g.store.Schema().NewBuilder(0, now)
		g.r.Begin(now)
		for i := 0; i < len(pairs); i += 2 {
			g.r.Counter(b, &testCount, uint32(pairs[i]), pairs[i+1])
		}
		p, err := b.Part()
		if err != nil {
			t.Fatal(err)
		}
		g.store.Publish(0, p)
		g.r.Commit()
	}
	ordered(t0, 1, 100, 2, 200, 3, 300)
	ordered(t1, 3, 310, 1, 120) // 2 gone, order changed
	g.wantRate(testCount, 3, 5)
	g.wantRate(testCount, 1, 10)
	g.wantNoRate(testCount, 2)
	ordered(t1.Add(time.Second), 0, 5, 1, 121, 2, 400, 3, 311)
	g.wantNoRate(testCount, 0)
	g.wantRate(testCount, 1, 1)
	g.wantNoRate(testCount, 2) // absent last sample: no base
	g.wantRate(testCount, 3, 1)

	// 200 counters, then deltas of the first ones: beyond the look-back.
	b := g.store.Schema().NewBuilder(0, t1)
	g.r.Begin(t1.Add(2 * time.Second))
	for i := uint32(0); i < 200; i++ {
		g.r.Counter(b, &testCount, i, uint64(1000+i))
	}
	if d, ok := g.r.Delta(testCount.ID, 1); !ok || d != 1001-121 {
		t.Errorf("delta of inst 1 = %d, %v; want %d", d, ok, 1001-121)
	}
	if _, ok := g.r.Delta(testCount.ID, 150); ok {
		t.Error("delta of an instance the previous sample lacked")
	}
}
