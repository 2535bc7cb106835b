package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A kernel that sums a per-CPU field of 2^64-1 into the cpu line wraps
// round to a sane-looking count (cpu0's 2600 ticks - 1), and a guest time
// of 2^64-1 clamps vuser to 0: the steps into those read backwards, and
// the steps out look like growth of 37 s and 35 s in one second on 2 CPUs.
// Their bounds (engine.Bound) make both steps resets.
func TestCPUWrappedSumIsAReset(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.MustSample(t0)
	h.Use("proc-t1")
	h.MustSample(t1)
	text, err := os.ReadFile(filepath.Join(testdataDir, "proc-t1", "stat"))
	if err != nil {
		t.Fatal(err)
	}
	wrapped := strings.NewReplacer(
		"cpu  6100 0 3900 92380 ", "cpu  2599 0 3900 92480 ",
		"cpu1 3500 0 2260 45030 710 0 140 760 60 ", "cpu1 18446744073709551615 0 2260 45130 710 0 140 760 18446744073709551615 ",
	).Replace(string(text))
	if err := os.WriteFile(filepath.Join(h.Proc, "stat"), []byte(wrapped), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t1.Add(time.Second))
	h.WantAbsent("rate.kernel.all.cpu.user", cache.InstNone)
	h.WantAbsent("rate.kernel.percpu.cpu.vuser", cpu1)
	h.Use("proc-bound/t2")
	h.MustSample(t1.Add(2 * time.Second))
	// all user 25990 -> 63000 ms and cpu1 vuser 0 -> 35400 ms in 1 s.
	h.WantAbsent("rate.kernel.all.cpu.user", cache.InstNone)
	h.WantAbsent("kernel.cpu.util.user", cache.InstNone)
	h.WantAbsent("rate.kernel.percpu.cpu.vuser", cpu1)
	h.Use("proc-bound/t3")
	h.MustSample(t1.Add(4 * time.Second))
	h.WantFloat("rate.kernel.all.cpu.user", cache.InstNone, 1.5)
	h.WantFloat("rate.kernel.percpu.cpu.vuser", cpu1, 0.75)
	// In: all user, vuser (2599-60 ticks, backwards), cpu1 user, vuser,
	// guest. Out: the same five, all user and cpu1 vuser by their bounds.
	if n := h.Resets(); n != 10 {
		t.Errorf("Resets() = %d, want 10", n)
	}
}
