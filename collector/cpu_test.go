package collector

import (
	"reflect"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture /proc/stat (testdata/proc-t0 and proc-t1, 2 CPUs, USER_HZ 100):
//
//	        user nice  sys  idle iowait irq softirq steal guest guest_nice
//	t0 cpu  5900    0 3800 92300    800   0     160  1460    40 0
//	t0 cpu0 2500    0 1600 47300    100   0      20   700     0 0
//	t0 cpu1 3400    0 2200 45000    700   0     140   760    40 0
//	t1 cpu  6100    0 3900 92380    810   0     170  1460    60 0
//	t1 cpu0 2600    0 1640 47350    100   0      30   700     0 0
//	t1 cpu1 3500    0 2260 45030    710   0     140   760    60 0
//
// Each CPU moves on 200 ticks = 2 s between t0 and t1, which are 2 s apart.
// intr 241000 -> 243000, ctxt 427000 -> 431000, processes 6500 -> 6520.

const (
	cpu0 uint32 = 0
	cpu1 uint32 = 1
)

func TestCPUFirstSample(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.MustSample(t0)

	// Milliseconds are ticks * 1000/USER_HZ = ticks * 10.
	h.WantU64("kernel.all.cpu.user", cache.InstNone, 59000)  // 5900 ticks
	h.WantU64("kernel.all.cpu.vuser", cache.InstNone, 58600) // (5900 - 40 guest) ticks
	h.WantU64("kernel.all.cpu.guest", cache.InstNone, 400)
	h.WantU64("kernel.all.cpu.intr", cache.InstNone, 1600) // (0 irq + 160 softirq) ticks
	h.WantU64("kernel.all.cpu.wait.total", cache.InstNone, 8000)
	h.WantU64("kernel.all.cpu.steal", cache.InstNone, 14600)
	h.WantU64("kernel.percpu.cpu.user", cpu1, 34000) // 3400 ticks
	h.WantU64("kernel.percpu.cpu.sys", cpu0, 16000)  // 1600 ticks
	h.WantU64("kernel.percpu.cpu.vuser", cpu1, 33600)
	h.WantU64("kernel.all.pswitch", cache.InstNone, 427000)
	h.WantU64("kernel.all.sysfork", cache.InstNone, 6500)
	h.WantU64("kernel.all.intr", cache.InstNone, 241000)
	h.WantU64("kernel.all.running", cache.InstNone, 1)
	h.WantU64("kernel.all.blocked", cache.InstNone, 0)
	h.WantU64("kernel.all.boottime", cache.InstNone, 1795320170)
	h.WantU64("hinv.ncpu", cache.InstNone, 2)
	h.WantU64("kernel.all.hz", cache.InstNone, 100)

	in, _ := h.Store.Load().InDom(indomCPU)
	want := []cache.Instance{{ID: 0, Name: "cpu0"}, {ID: 1, Name: "cpu1"}}
	if got := in.All(); !reflect.DeepEqual(got, want) {
		t.Errorf("cpu instances = %v, want %v", got, want)
	}

	// One sample has no interval: no rate and no utilisation at all.
	if n := h.Published("rate."); n != 0 {
		t.Errorf("first sample published %d rate values", n)
	}
	if n := h.Published("kernel.cpu.util."); n != 0 {
		t.Errorf("first sample published %d utilisation values", n)
	}
}

func TestCPURates(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.MustSample(t0)
	h.Use("proc-t1")
	h.MustSample(t1)

	// CPU time rates are seconds of CPU per second: dimensionless.
	// user 5900 -> 6100 ticks = 59000 -> 61000 ms: 2000 ms / 2 s = 1.0 s/s.
	h.WantFloat("rate.kernel.all.cpu.user", cache.InstNone, 1.0)
	// vuser (user - guest) 58600 -> 60400 ms: 1800 ms / 2 s = 0.9 s/s.
	h.WantFloat("rate.kernel.all.cpu.vuser", cache.InstNone, 0.9)
	// idle 92300 -> 92380 ticks: 800 ms / 2 s = 0.4 s/s.
	h.WantFloat("rate.kernel.all.cpu.idle", cache.InstNone, 0.4)
	// nice did not move: a rate of 0, not no rate.
	h.WantFloat("rate.kernel.all.cpu.nice", cache.InstNone, 0)
	// cpu1 user 3400 -> 3500 ticks: 1000 ms / 2 s = 0.5 s/s.
	h.WantFloat("rate.kernel.percpu.cpu.user", cpu1, 0.5)
	// cpu0 sys 1600 -> 1640 ticks: 400 ms / 2 s = 0.2 s/s.
	h.WantFloat("rate.kernel.percpu.cpu.sys", cpu0, 0.2)

	// Count rates are per second.
	h.WantFloat("rate.kernel.all.pswitch", cache.InstNone, 2000) // (431000 - 427000) / 2 s
	h.WantFloat("rate.kernel.all.sysfork", cache.InstNone, 10)   // (6520 - 6500) / 2 s
	h.WantFloat("rate.kernel.all.intr", cache.InstNone, 1000)    // (243000 - 241000) / 2 s

	// Utilisation: 100 * rate / ncpu, ncpu = 2.
	h.WantFloat("kernel.cpu.util.user", cache.InstNone, 50)  // 100 * 1.0 / 2
	h.WantFloat("kernel.cpu.util.sys", cache.InstNone, 25)   // 100 * (1000 ms / 2 s) / 2
	h.WantFloat("kernel.cpu.util.idle", cache.InstNone, 20)  // 100 * 0.4 / 2
	h.WantFloat("kernel.cpu.util.wait", cache.InstNone, 2.5) // 100 * (100 ms / 2 s) / 2
	h.WantFloat("kernel.cpu.util.intr", cache.InstNone, 2.5) // softirq: 100 * (100 ms / 2 s) / 2
	h.WantFloat("kernel.cpu.util.nice", cache.InstNone, 0)
	h.WantFloat("kernel.cpu.util.steal", cache.InstNone, 0)

	if n := h.Resets(); n != 0 {
		t.Errorf("Resets() = %d, want 0", n)
	}
}

// testdata/proc-reset is proc-t0 with cpu1's user time 100 ticks lower (so
// also the all-CPU user line) and ctxt lower: counters that went backwards.
func TestCPUCounterReset(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.MustSample(t0)
	h.Use("proc-reset")
	h.MustSample(t1)

	// Backwards: all user 59000 -> 58000, all vuser 58600 -> 57600,
	// cpu1 user 34000 -> 33000, cpu1 vuser 33600 -> 32600, pswitch
	// 427000 -> 400000. Each gives no rate and counts one reset.
	h.WantAbsent("rate.kernel.all.cpu.user", cache.InstNone)
	h.WantAbsent("rate.kernel.all.cpu.vuser", cache.InstNone)
	h.WantAbsent("rate.kernel.percpu.cpu.user", cpu1)
	h.WantAbsent("rate.kernel.percpu.cpu.vuser", cpu1)
	h.WantAbsent("rate.kernel.all.pswitch", cache.InstNone)
	h.WantAbsent("kernel.cpu.util.user", cache.InstNone)
	if n := h.Resets(); n != 5 {
		t.Errorf("Resets() = %d, want 5", n)
	}
	// The raw counters are still published as read.
	h.WantU64("kernel.percpu.cpu.user", cpu1, 33000)
	h.WantU64("kernel.all.pswitch", cache.InstNone, 400000)
	// Other instances and counters keep their rates (unchanged: 0).
	h.WantFloat("rate.kernel.percpu.cpu.user", cpu0, 0)
	h.WantFloat("rate.kernel.all.sysfork", cache.InstNone, 0)
	h.WantFloat("kernel.cpu.util.sys", cache.InstNone, 0)

	// The next interval rates from the new base: user 58000 -> 61000 ms
	// over 2 s = 1.5 s/s; pswitch 400000 -> 431000 over 2 s = 15500/s.
	h.Use("proc-t1")
	h.MustSample(t1.Add(2 * time.Second))
	h.WantFloat("rate.kernel.all.cpu.user", cache.InstNone, 1.5)
	h.WantFloat("rate.kernel.all.pswitch", cache.InstNone, 15500)
	if n := h.Resets(); n != 5 {
		t.Errorf("Resets() = %d after a clean interval, want still 5", n)
	}
}

// A failed sample must not become the previous sample: the next rate is
// over the whole interval since the last good one.
func TestCPUFailedSampleKeepsInterval(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.MustSample(t0)
	h.Use("proc-empty")
	if err := h.Sample(t0.Add(time.Second)); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.WantU64("kernel.all.cpu.user", cache.InstNone, 59000) // t0's value stays
	h.Use("proc-t1")
	h.MustSample(t1)
	// 2000 ms over the 2 s since t0, not the 1 s since the failure.
	h.WantFloat("rate.kernel.all.cpu.user", cache.InstNone, 1.0)
}

func TestCPUEmptyRoot(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-empty")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.NothingPublished()
}

func TestCPUMalformed(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-malformed")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling a malformed /proc/stat succeeded")
	}
	h.NothingPublished()
}

func TestCPUBadRoot(t *testing.T) {
	if _, err := NewCPUCollector(engine.Env{Proc: "/nonexistent/proc"}); err == nil {
		t.Error("a missing proc root was accepted")
	}
}
