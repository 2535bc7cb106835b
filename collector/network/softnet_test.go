package network

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Fixtures proc-t0, proc-t1 net/softnet_stat, in 6.x kernels' 15
// columns: CPUs 0 and 2 (CPU 1 offline, so the second line's CPU comes
// from its 13th column); cpu0 processed 0x100 -> 0x300 and dropped 2 -> 4,
// cpu2 processed 0x200 -> 0x400.
func TestSoftnetValues(t *testing.T) {
	h := collectortest.NewHarness(t, NewSoftnetCollector, "proc-t0")
	h.MustSample(t0)
	h.WantU64("network.softnet.percpu.processed", 0, 0x100)
	h.WantU64("network.softnet.percpu.processed", 2, 0x200)
	h.WantU64("network.softnet.processed", cache.InstNone, 0x300)
	h.WantU64("network.softnet.dropped", cache.InstNone, 2)
	h.WantU64("network.softnet.time_squeeze", cache.InstNone, 4)
	h.WantU64("network.softnet.cpu_collision", cache.InstNone, 4)
	h.WantU64("network.softnet.flow_limit_count", cache.InstNone, 6)
	h.WantAbsent("network.softnet.percpu.processed", 1)
	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantFloat("rate.network.softnet.processed", cache.InstNone, 0x400/2)
	h.WantFloat("rate.network.softnet.percpu.dropped", 0, 1)
}

// Before Linux 5.10 a line has 11 columns and its CPU is its place.
func TestParseSoftnetOld(t *testing.T) {
	rows, bad := kernel.ParseSoftnet([]byte("0000000a 00000000 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"+
		"0000000b 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\nzz\n"), nil)
	if len(rows) != 2 || rows[1].CPU != 1 || rows[1].Processed != 11 || bad != 1 {
		t.Errorf("rows %+v, bad %d", rows, bad)
	}
}
