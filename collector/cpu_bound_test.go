package collector

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// twoNodes is a /sys root with NUMA nodes 0 (cpu0) and 1 (cpu1).
func twoNodes(t *testing.T) string {
	return nodeTree(t, map[string][]string{"node0": {"cpu0"}, "node1": {"cpu1"}})
}

// fetchAs reads metric d for client c (over c's own interval), by instance.
func (h *harness) fetchAs(c int32, d *cache.Desc) map[uint32]float64 {
	q := cache.Request{Snap: h.Store.Load(), Now: h.Now, Client: c}
	out := map[uint32]float64{}
	for _, v := range q.AppendValues(nil, d) {
		out[v.Inst] = v.Double()
	}
	return out
}

// cpuFigureLimit is the most a CPU figure can read on the fixtures' 2
// CPUs over steps of 1 s or more, with timeSlack: 2.1 s/s for the host,
// 1.05 for a CPU or a node of one, 105 % for a utilisation.
func cpuFigureLimit(name string) (float64, bool) {
	slack := 1 + timeSlack.Seconds()
	switch {
	case strings.Contains(name, ".kernel.all.cpu."):
		return 2 * slack, true
	case strings.Contains(name, ".kernel.percpu.cpu."), strings.Contains(name, ".kernel.pernode.cpu."):
		return slack, true
	case strings.Contains(name, ".kernel.cpu.util."):
		return 100 * slack, true
	}
	return 0, false
}

// checkCPUFigures reads every computed CPU figure for client c and fails
// on any outside [0, its limit].
func (h *harness) checkCPUFigures(c int32) {
	h.T.Helper()
	descs := h.Store.Schema().Descs()
	for i := range descs {
		d := &descs[i]
		limit, ok := cpuFigureLimit(d.Name)
		if !ok || d.Compute == nil {
			continue
		}
		for inst, v := range h.fetchAs(c, d) {
			if v < 0 || v > limit || math.IsNaN(v) {
				h.T.Errorf("at %v client %d %s[%d] = %v, outside [0, %v]", h.Now.Sub(t0), c, d.Name, inst, v, limit)
			}
		}
	}
}

// testdata/proc-bound/max reads 2^64-1 in the user field of the cpu and
// cpu1 lines, 1 s after proc-t1; t2 (1 s later) and t3 (2 s after t2) are
// sane again. The steps into and out of it are resets: no figure over a
// window holding them leaves its physical range, the good steps on both
// sides keep their true figures, and the resets are counted.
func TestCPUFieldAtMaxIsAReset(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.Attach(NewCPUCollector, engine.Env{Proc: h.Proc, Sys: twoNodes(t)})
	const whole, each = 1, 2 // fetching at t0 and t3; at every sample
	steps := []struct {
		tree string
		at   time.Time
	}{
		{"proc-t0", t0}, {"proc-t1", t1}, {"proc-bound/max", t1.Add(time.Second)},
		{"proc-bound/t2", t1.Add(2 * time.Second)}, {"proc-bound/t3", t1.Add(4 * time.Second)},
	}
	for i, s := range steps {
		h.Use(s.tree)
		h.MustSample(s.at)
		h.checkCPUFigures(each)
		if i == 0 {
			h.checkCPUFigures(whole) // its interval starts here
		}
		if s.tree == "proc-bound/max" {
			// Saturated, never a wrapped product that could pass for growth.
			h.WantU64("kernel.all.cpu.user", cache.InstNone, math.MaxUint64)
			h.WantU64("kernel.percpu.cpu.vuser", cpu1, math.MaxUint64)
			h.WantU64("kernel.pernode.cpu.user", 1, math.MaxUint64)
			h.WantU64("kernel.percpu.cpu.user", cpu0, 27000) // cpu0 is sane
		}
	}
	// 0-2 s: user 59000 -> 61000 ms; 4-6 s: 63000 -> 66000 ms, cpu1 36000
	// -> 37500 ms. The window 0-6 s is 5000 ms over the 4 s of good steps.
	want := map[string]map[uint32]float64{
		"rate.kernel.all.cpu.user":     {cache.InstNone: 1.25},
		"max.rate.kernel.all.cpu.user": {cache.InstNone: 1.5},
		"min.rate.kernel.all.cpu.user": {cache.InstNone: 1},
		"kernel.cpu.util.user":         {cache.InstNone: 62.5},
		"max.kernel.cpu.util.user":     {cache.InstNone: 75},
		"min.kernel.cpu.util.user":     {cache.InstNone: 50},
		// cpu0 (node 0) 25000 -> 28500 ms over all 6 s; cpu1 (node 1)
		// 34000 -> 35000 and 36000 -> 37500 ms over the 4 s of good steps.
		"rate.kernel.percpu.cpu.user":  {cpu0: 3500.0 / 1000 / 6, cpu1: 0.625},
		"rate.kernel.pernode.cpu.user": {0: 3500.0 / 1000 / 6, 1: 0.625},
	}
	for name, insts := range want {
		got := h.fetchAs(whole, h.Desc(name))
		for inst, w := range insts {
			if v, ok := got[inst]; !ok || math.Abs(v-w) > 1e-9 {
				t.Errorf("window 0-6 s: %s[%d] = %v (%v), want %v", name, inst, v, ok, w)
			}
		}
	}
	h.WantFloat("rate.kernel.all.cpu.user", cache.InstNone, 1.5) // the newest step, 4-6 s
	h.WantFloat("kernel.cpu.util.user", cache.InstNone, 75)
	h.WantFloat("rate.kernel.percpu.cpu.user", cpu1, 0.75)
	// Into and out of 2^64-1: all user and vuser, cpu1's and node 1's.
	if n := h.Resets(); n != 12 {
		t.Errorf("Resets() = %d, want 12: 6 counters, each a step in and a step out", n)
	}
}

// The milliseconds of a tick count, exact while they fit, and 2^64-1 once
// they do not.
func TestToMS(t *testing.T) {
	for ticks, want := range map[uint64]uint64{
		0: 0, 1: 10, 5900: 59000, 1e17: 1e18,
		1844674407370955161: 18446744073709551610, // the last that fits
		1844674407370955162: math.MaxUint64,
		math.MaxUint64:      math.MaxUint64,
	} {
		if got := toMS(ticks); got != want {
			t.Errorf("toMS(%d) = %d, want %d", ticks, got, want)
		}
	}
	if got := addTicks(3, 4); got != 7 {
		t.Errorf("addTicks(3, 4) = %d", got)
	}
	if got := addTicks(math.MaxUint64, 160); got != math.MaxUint64 {
		t.Errorf("addTicks(2^64-1, 160) = %d, want 2^64-1", got)
	}
}

// Every CPU time counter has its physical bound: one CPU's for a CPU,
// hinv.ncpu CPUs' for the host, a node's CPUs' for a node.
func TestCPUTimeBounds(t *testing.T) {
	c, err := NewCPUCollector(engine.Env{Proc: filepath.Join(testdataDir, "proc-t0"), Sys: twoNodes(t)})
	if err != nil {
		t.Fatal(err)
	}
	bounds := map[cache.MetricID]engine.Bound{}
	for _, b := range c.(engine.Bounder).Bounds() {
		bounds[b.Counter] = b.Bound
	}
	for i, ct := range cpuTimes {
		all, per, node := bounds[ct.all.ID], bounds[ct.per.ID], bounds[nodeTimes[i].ID]
		if all.PerSecond != 1000 || all.Units == nil || all.Units.ID != statNCPU.ID || all.Slack != timeSlack {
			t.Errorf("%s: bound %+v, want 1000 ms/s per hinv.ncpu", ct.all.Name, all)
		}
		if per.PerSecond != 1000 || per.Units != nil || per.UnitsOf != nil {
			t.Errorf("%s: bound %+v, want 1000 ms/s", ct.per.Name, per)
		}
		if node.UnitsOf == nil || node.UnitsOf(0) != 1 || node.UnitsOf(1) != 1 || node.UnitsOf(7) != 0 {
			t.Errorf("%s: bound %+v, want 1000 ms/s per CPU of the node", nodeTimes[i].Name, node)
		}
	}
	if len(bounds) != 3*len(cpuTimes) {
		t.Errorf("%d bounds, want %d", len(bounds), 3*len(cpuTimes))
	}
}

// The time counters of cpusys and avactive of the disk trees (but
// multipath's sum) are bounded too.
func TestOtherTimeBounds(t *testing.T) {
	cs, err := NewCPUSysCollector(engine.Env{Sys: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range cs.(engine.Bounder).Bounds() {
		if b.Counter != cpuCoreThrTime.ID && b.Counter != cpuPkgThrTime.ID && b.Counter != cpuFreqTime.ID {
			t.Errorf("cpusys bounds %v", b.Counter)
		}
	}
	dc := &diskCollector{}
	for tree := range diskNTrees {
		dc.descs[tree] = diskTreeDescs(tree)
	}
	got := map[cache.MetricID]engine.Bound{}
	for _, b := range dc.Bounds() {
		got[b.Counter] = b.Bound
	}
	for tree := range diskNTrees {
		d := dc.descs[tree][dfAvactive]
		b, ok := got[d.ID]
		switch {
		case tree == diskWWID && ok:
			t.Errorf("%s is bounded: a multipath device's paths are busy each on its own", d.Name)
		case tree != diskWWID && (!ok || b.PerSecond != 1000):
			t.Errorf("%s: bound %+v (%v), want 1000 ms/s", d.Name, b, ok)
		case tree == diskAll && (b.Units == nil || b.Units.ID != diskCount.ID):
			t.Errorf("%s: bound %+v, want one per hinv.ndisk", d.Name, b)
		}
	}
}
