package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Fixtures proc-t0, proc-t1 net/softnet_stat, in 6.x kernels' 15
// columns: CPUs 0 and 2 (CPU 1 offline, so the second line's CPU comes
// from its 13th column); cpu0 processed 0x100 -> 0x300 and dropped 2 -> 4,
// cpu2 processed 0x200 -> 0x400.
func TestSoftnetValues(t *testing.T) {
	h := newHarness(t, NewSoftnetCollector, "proc-t0")
	h.mustSample(t0)
	h.wantU64("network.softnet.percpu.processed", 0, 0x100)
	h.wantU64("network.softnet.percpu.processed", 2, 0x200)
	h.wantU64("network.softnet.processed", cache.InstNone, 0x300)
	h.wantU64("network.softnet.dropped", cache.InstNone, 2)
	h.wantU64("network.softnet.time_squeeze", cache.InstNone, 4)
	h.wantU64("network.softnet.cpu_collision", cache.InstNone, 4)
	h.wantU64("network.softnet.flow_limit_count", cache.InstNone, 6)
	h.wantAbsent("network.softnet.percpu.processed", 1)
	h.use("proc-t1")
	h.mustSample(t1)
	h.wantFloat("rate.network.softnet.processed", cache.InstNone, 0x400/2)
	h.wantFloat("rate.network.softnet.percpu.dropped", 0, 1)
}

// Before Linux 5.10 a line has 11 columns and its CPU is its place.
func TestParseSoftnetOld(t *testing.T) {
	rows, bad := kernel.ParseSoftnet([]byte("0000000a 00000000 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"+
		"0000000b 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\nzz\n"), nil)
	if len(rows) != 2 || rows[1].CPU != 1 || rows[1].Processed != 11 || bad != 1 {
		t.Errorf("rows %+v, bad %d", rows, bad)
	}
}

// Fixtures sys-t0, sys-t1 kernel/mm/ksm: run 1, full_scans 7 -> 9.
func TestKSMValues(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := &harness{t: t, proc: t.TempDir()}
	h.use("proc-t0")
	h.attach(NewKSMCollector, engine.Env{Proc: h.proc, Sys: sys})
	h.mustSample(t0)
	h.wantU64("mem.ksm.run_state", cache.InstNone, 1)
	h.wantU64("mem.ksm.full_scans", cache.InstNone, 7)
	h.wantU64("mem.ksm.pages_to_scan", cache.InstNone, 100)
	// A kernel without KSM: nothing, and an error.
	os.RemoveAll(filepath.Join(sys, "kernel"))
	if err := h.sample(t1); err == nil {
		t.Error("no error without /sys/kernel/mm/ksm")
	}
}
