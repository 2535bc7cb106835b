package engine

import (
	"math"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A CPU-like source with bounds: per-CPU milliseconds (at most 1000 a
// second each), their sum over ncpu CPUs (at most ncpu * 1000 a second),
// per-node milliseconds (at most the node's CPUs * 1000 a second), and the
// utilisation of the sum, with peaks.
var (
	bnPer  = Metric("hostcache.test.per", 11, 1, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 11)
	bnAll  = Metric("hostcache.test.all", 11, 2, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, cache.InDomNone)
	bnNode = Metric("hostcache.test.node", 11, 3, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 12)
	bnNCPU = Metric("hostcache.test.ncpu", 11, 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	bnUtil = Metric("hostcache.test.allutil", 11, 5, cache.TypeDouble, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// bnSlack is the slack the tests' bounds allow: 50 ms a step.
const bnSlack = 50 * time.Millisecond

// boundStep is what the bounded source publishes at one sample.
type boundStep struct {
	per  [2]uint64 // CPUs 0 and 1
	all  uint64
	node [2]uint64 // node 0 has one CPU, node 1 four
	ncpu uint64
}

type boundSource struct{ step boundStep }

func (s *boundSource) Name() string { return "bounded" }
func (s *boundSource) Source() cache.Source {
	return cache.Source{Name: "bounded", Metrics: []cache.Desc{bnPer, bnAll, bnNode, bnNCPU},
		InDoms: []cache.InDomDesc{{ID: 11, Name: "cpus"}, {ID: 12, Name: "nodes"}}}
}
func (s *boundSource) Sample(b *cache.Builder, _ time.Time) error {
	for i, v := range s.step.per {
		b.SetU64(bnPer.ID, uint32(i), v)
	}
	b.SetU64(bnAll.ID, cache.InstNone, s.step.all)
	for i, v := range s.step.node {
		b.SetU64(bnNode.ID, uint32(i), v)
	}
	b.SetU64(bnNCPU.ID, cache.InstNone, s.step.ncpu)
	return nil
}

func (s *boundSource) Bounds() []Bounded {
	nodeCPUs := func(inst uint32) uint64 { return []uint64{1, 4}[inst] }
	return []Bounded{
		WithBound(bnPer, Bound{PerSecond: 1000, Slack: bnSlack}),
		WithBound(bnAll, Bound{PerSecond: 1000, Units: &bnNCPU, Slack: bnSlack}),
		WithBound(bnNode, Bound{PerSecond: 1000, UnitsOf: nodeCPUs, Slack: bnSlack}),
	}
}

// Derived declares test.allutil = 100 * rate(test.all) / 1000 / ncpu.
func (s *boundSource) Derived() []Derived {
	return []Derived{{Desc: bnUtil, Like: bnAll.ID, Peaks: true, Value: func(w *Window, inst uint32) (float64, bool) {
		n, okN := w.Published(bnNCPU.ID, cache.InstNone)
		d, secs, ok := w.DeltaSeconds(bnAll.ID, inst)
		if !ok || !okN || n.Bits == 0 || secs <= 0 {
			return 0, false
		}
		return 100 * float64(d) / 1000 / secs / float64(n.Bits), true
	}}}
}

// newBoundRig attaches the bounded source, its history bound by its
// Bounds as the runner binds it.
func newBoundRig(t *testing.T) (*intervalRig, *boundSource) {
	src := &boundSource{}
	g := &intervalRig{t: t}
	g.r = NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second, History: time.Minute, MaxClients: 8})
	schema, err := cache.NewSchema(g.r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	g.front = cache.NewFront(schema)
	if err := g.r.Attach(g.front); err != nil {
		t.Fatal(err)
	}
	return g, src
}

func (g *intervalRig) sampleBound(src *boundSource, at time.Time, step boundStep) {
	g.t.Helper()
	src.step, g.now = step, at
	if err := g.r.SampleAt(at); err != nil {
		g.t.Fatal(err)
	}
}

// busy is k seconds of two CPUs: CPU 0 always busy, CPU 1 half the time,
// node 0 (CPU 0) busy, node 1 (four CPUs) at two.
func busy(k int) boundStep {
	ms := uint64(1000 * k)
	return boundStep{per: [2]uint64{ms, ms / 2}, all: ms + ms/2, node: [2]uint64{ms, 2 * ms}, ncpu: 2}
}

// A step beyond its bound is a reset, and the step back from the absurd
// value (backwards) another: both are left out of the instance's rate,
// of the derived figure and of the one-step peaks, and the good steps on
// both sides keep their true figures.
func TestStepBeyondBoundIsAReset(t *testing.T) {
	g, src := newBoundRig(t)
	for k := 0; k <= 2; k++ {
		g.sampleBound(src, at(k), busy(k))
	}
	g.fetch(1, "hostcache.rate.test.all") // client 1 starts its interval at 2
	g.fetch(1, "hostcache.test.allutil")
	g.fetch(1, "hostcache.max.rate.test.all")
	g.fetch(1, "hostcache.max.test.allutil")
	absurd := busy(3)
	absurd.all = 1e15 // far below half the range, far above 2 CPUs' 2050 ms
	g.sampleBound(src, at(3), absurd)
	g.want(2, "hostcache.rate.test.all", cache.InstNone, math.NaN())
	g.want(2, "hostcache.test.allutil", cache.InstNone, math.NaN())
	g.want(2, "hostcache.rate.test.per", 0, 1) // other counters keep the step
	g.sampleBound(src, at(4), busy(4))
	g.want(3, "hostcache.rate.test.all", cache.InstNone, math.NaN()) // backwards from 1e15
	g.sampleBound(src, at(5), busy(5))
	// Client 1's window 2-5 holds one good step, 4-5: 1500 ms in 1 s.
	g.want(1, "hostcache.rate.test.all", cache.InstNone, 1.5)
	g.want(1, "hostcache.test.allutil", cache.InstNone, 75)
	g.want(1, "hostcache.max.rate.test.all", cache.InstNone, 1.5)
	g.want(1, "hostcache.max.test.allutil", cache.InstNone, 75)
	g.want(4, "hostcache.rate.test.all", cache.InstNone, 1.5)
	if n := g.r.entries[0].stats.resets.Load(); n != 2 {
		t.Errorf("resets = %d, want 2 (the step into 1e15 and the step out)", n)
	}
}

// The bound is PerSecond * units * (step + slack): a CPU's time over a
// 1 s step may read 1.05 s, not a millisecond more; the units are the
// larger count of the step's two ends; no count leaves the step unchecked.
func TestBoundLimit(t *testing.T) {
	g, src := newBoundRig(t)
	base := boundStep{ncpu: 2}
	g.sampleBound(src, at(0), base)
	edge := boundStep{per: [2]uint64{1050, 1051}, all: 2100, ncpu: 1} // 2 CPUs at the start
	g.sampleBound(src, at(1), edge)
	g.want(1, "hostcache.rate.test.per", 0, 1.05)
	g.want(1, "hostcache.rate.test.per", 1, math.NaN())
	g.want(1, "hostcache.rate.test.all", cache.InstNone, 2.1)
	over := boundStep{per: [2]uint64{2100, 2101}, all: 3151, ncpu: 1} // 1 CPU at both ends
	g.sampleBound(src, at(2), over)
	g.want(2, "hostcache.rate.test.all", cache.InstNone, math.NaN())
	unknown := boundStep{all: 1e9, ncpu: 0}
	g.sampleBound(src, at(3), unknown)
	g.sampleBound(src, at(4), unknown)
	g.sampleBound(src, at(5), boundStep{all: 1e9 + 5e6, ncpu: 0})
	g.want(3, "hostcache.rate.test.all", cache.InstNone, 5e3) // nothing to bound it by
}

// A bound by instance: node 0 has one CPU, node 1 four; 3 s of CPU time
// in a second is a reset for node 0 only.
func TestBoundPerInstance(t *testing.T) {
	g, src := newBoundRig(t)
	g.sampleBound(src, at(0), boundStep{ncpu: 2})
	g.sampleBound(src, at(1), boundStep{node: [2]uint64{3000, 3000}, ncpu: 2})
	g.want(1, "hostcache.rate.test.node", 0, math.NaN())
	g.want(1, "hostcache.rate.test.node", 1, 3)
	if n := g.r.entries[0].stats.resets.Load(); n != 1 {
		t.Errorf("resets = %d, want 1", n)
	}
}

// Declaring a bound on what is no watched counter, or counting its units
// with a metric the source lacks, fails at start-up.
func TestBoundDeclarationMistakes(t *testing.T) {
	for name, bd := range map[string]Bounded{
		"instant":       WithBound(bnNCPU, Bound{PerSecond: 1}),
		"foreign":       WithBound(ivCount, Bound{PerSecond: 1}),
		"foreign units": WithBound(bnAll, Bound{PerSecond: 1, Units: &ivMS}),
	} {
		t.Run(name, func(t *testing.T) {
			g, _ := newBoundRig(t)
			defer func() {
				if recover() == nil {
					t.Errorf("a bound %+v was accepted", bd)
				}
			}()
			g.r.entries[0].hist().setBound(bd)
		})
	}
}

// Windows holding a reset step, and their peaks, are read without
// allocating.
func TestBoundedReadsDoNotAllocate(t *testing.T) {
	g, src := newBoundRig(t)
	for k := 0; k <= 12; k++ {
		step := busy(k)
		if k == 6 {
			step.all = 1e15
		}
		g.sampleBound(src, at(k), step)
	}
	var descs []*cache.Desc
	for _, n := range []string{"hostcache.rate.test.all", "hostcache.max.rate.test.all", "hostcache.test.allutil", "hostcache.min.test.allutil"} {
		d, _ := g.front.Schema().Lookup(n)
		descs = append(descs, d)
	}
	q := cache.Request{Snap: g.front.Load(), Now: g.now, Client: 3}
	var marks *clientMarks
	dst := make([]cache.Value, 0, 64)
	read := func() {
		for k := range marks.seen {
			marks.seen[k] = 1 // the window 0-12, over the reset steps
		}
		for _, d := range descs {
			dst = q.AppendValues(dst[:0], d)
		}
	}
	for _, d := range descs {
		q.AppendValues(nil, d) // the client's marks are made on its first fetch
	}
	marks = g.r.figures.clients.byID[3]
	if n := testing.AllocsPerRun(100, read); n != 0 {
		t.Errorf("%v allocations per read of windows with a reset", n)
	}
	if got := decode(cache.TypeDouble, dst[0].Bits); got != 75 {
		t.Errorf("min util over the window = %v, want 75", got)
	}
}
