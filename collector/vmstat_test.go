package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/host/t0 and t1 /proc/vmstat (kernel 6.18; no plain
// "allocstall" line, only per-zone ones):
//
//	                        t0        t1   delta over 2 s
//	pgpgin             2760000   2764000     4000
//	pgpgout            2860000   2866000     6000
//	pswpin                1000      1200      200
//	pswpout               3000      3600      600
//	pgfault           12110000  12130000    20000
//	pgmajfault            6300      6340       40
//	oom_kill                 1         2        1
//	pgscan_kswapd         5000      5400      400
//	pgscan_direct         1000      1100      100
//	pgscan_direct_throttle  10        10        0
//	pgsteal_kswapd        4000      4300      300
//	pgsteal_direct         800       880       80
//	pgsteal_file          3000      3280      280
//	pgsteal_anon          1800      1900      (not summed by pmdalinux)
//	thp_fault_alloc         20        24        4
//	allocstall_normal       12        14        2
//	nr_dirtied          560000    561000     1000
//	nr_written          266000    266800      800
//	nr_dirty              3000      2500   (instant)
//	nr_writeback           100         0   (instant)

func TestVMStatValues(t *testing.T) {
	h := newHostHarness(t, NewVMStatCollector, "t0", engine.Env{})
	h.MustSample(t0)
	const n = cache.InstNone
	h.WantU64("mem.vmstat.pgfault", n, 12110000)
	h.WantU64("mem.vmstat.pgmajfault", n, 6300)
	h.WantU64("mem.vmstat.pswpin", n, 1000)
	h.WantU64("mem.vmstat.oom_kill", n, 1)
	h.WantU64("mem.vmstat.nr_dirty", n, 3000)
	h.WantU64("mem.vmstat.nr_writeback", n, 100)
	h.WantU64("mem.vmstat.nr_free_pages", n, 790000)
	h.WantU64("mem.vmstat.allocstall_normal", n, 12)
	h.WantU64("mem.vmstat.pgdeactivate", n, 300)
	// pmdalinux's sums over the fields it knows:
	h.WantU64("mem.vmstat.pgscan_direct_total", n, 1010) // pgscan_direct 1000 + pgscan_direct_throttle 10
	h.WantU64("mem.vmstat.pgscan_kswapd_total", n, 5000) // pgscan_kswapd only (pgscan_khugepaged unknown to it)
	h.WantU64("mem.vmstat.pgsteal_total", n, 7800)       // kswapd 4000 + direct 800 + file 3000
	// Absent on this kernel: no value, not 0.
	h.WantAbsent("mem.vmstat.allocstall", n)
	if _, ok := h.Store.Schema().Lookup(engine.Prefix + "rate.mem.vmstat.nr_dirty"); ok {
		t.Error("an instant metric has a rate")
	}
}

func TestVMStatRates(t *testing.T) {
	h := newHostHarness(t, NewVMStatCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "t1")
	h.MustSample(t1)
	const n = cache.InstNone
	h.WantFloat("rate.mem.vmstat.pgfault", n, 10000)     // 20000 / 2 s
	h.WantFloat("rate.mem.vmstat.pgmajfault", n, 20)     // 40 / 2 s
	h.WantFloat("rate.mem.vmstat.pgpgin", n, 2000)       // 4000 / 2 s
	h.WantFloat("rate.mem.vmstat.pgpgout", n, 3000)      // 6000 / 2 s
	h.WantFloat("rate.mem.vmstat.pswpin", n, 100)        // 200 / 2 s
	h.WantFloat("rate.mem.vmstat.pswpout", n, 300)       // 600 / 2 s
	h.WantFloat("rate.mem.vmstat.oom_kill", n, 0.5)      // 1 / 2 s
	h.WantFloat("rate.mem.vmstat.thp_fault_alloc", n, 2) // 4 / 2 s
	h.WantFloat("rate.mem.vmstat.allocstall_normal", n, 1)
	h.WantFloat("rate.mem.vmstat.nr_dirtied", n, 500)         // 1000 / 2 s
	h.WantFloat("rate.mem.vmstat.nr_written", n, 400)         // 800 / 2 s
	h.WantFloat("rate.mem.vmstat.pgscan_direct_total", n, 50) // 1010 -> 1110
	h.WantFloat("rate.mem.vmstat.pgscan_kswapd_total", n, 200)
	h.WantFloat("rate.mem.vmstat.pgsteal_total", n, 330) // 7800 -> 8460 (4300 + 880 + 3280)
	h.WantFloat("rate.mem.vmstat.pgdeactivate", n, 0)
	h.WantU64("mem.vmstat.nr_dirty", n, 2500)
	h.WantAbsent("rate.mem.vmstat.allocstall", n)
	if r := h.Resets(); r != 0 {
		t.Errorf("Resets() = %d", r)
	}
}

// testdata/host/reset is t0 with pgfault 12110000 -> 100000, pswpin
// 1000 -> 10 and pgsteal_kswapd 4000 -> 3000 (so pgsteal_total
// 7800 -> 6800): four counters backwards.
func TestVMStatCounterReset(t *testing.T) {
	h := newHostHarness(t, NewVMStatCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "reset")
	h.MustSample(t1)
	const n = cache.InstNone
	for _, name := range []string{"pgfault", "pswpin", "pgsteal_kswapd", "pgsteal_total"} {
		h.WantAbsent("rate.mem.vmstat."+name, n)
	}
	h.WantU64("mem.vmstat.pgfault", n, 100000)
	h.WantFloat("rate.mem.vmstat.pgmajfault", n, 0)
	if r := h.Resets(); r != 4 {
		t.Errorf("Resets() = %d, want 4", r)
	}
	// Next interval from the new base: pgfault 100000 -> 12130000 over 2 s.
	useHostTree(h, "t1")
	h.MustSample(t1.Add(2 * time.Second))
	h.WantFloat("rate.mem.vmstat.pgfault", n, 6015000)
}

func TestVMStatMissingAndMalformed(t *testing.T) {
	for _, tree := range []string{"malformed", "empty"} {
		t.Run(tree, func(t *testing.T) {
			h := newHostHarness(t, NewVMStatCollector, tree, engine.Env{})
			if err := h.Sample(t0); err == nil {
				t.Fatal("sample succeeded")
			}
			h.NothingPublished()
		})
	}
}

func TestParseVMStat(t *testing.T) {
	vm := kernel.NewVMStat("pgfault", "truncated", "pgmajfault", "nr_dirty", "odd", "oom_kill", "pswpin")
	if err := kernel.ParseVMStat([]byte("pgfault 10\ntruncated\npgmajfault\nnr_dirty -5\nodd 1 2\noom_kill 3\n"), vm); err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for name := range vm.Slot {
		if v, ok := vm.Get(name); ok {
			got[name] = v
		}
	}
	if len(got) != 2 || got["pgfault"] != 10 || got["oom_kill"] != 3 {
		t.Errorf("parsed %v, want only pgfault and oom_kill", got)
	}
	if err := kernel.ParseVMStat(nil, vm); err == nil {
		t.Error("empty vmstat accepted")
	}
}

// A vmstat with no reclaim fields still has the totals, at 0, as pmdalinux.
func TestVMStatTotalsWithoutParts(t *testing.T) {
	h := newHostHarness(t, NewVMStatCollector, "empty", engine.Env{})
	if err := os.WriteFile(filepath.Join(h.Proc, "vmstat"), []byte("pgfault 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.WantU64("mem.vmstat.pgsteal_total", cache.InstNone, 0)
	h.WantU64("mem.vmstat.pgfault", cache.InstNone, 5)
	h.WantAbsent("mem.vmstat.pgscan_kswapd", cache.InstNone)
}

// Each metric's name ends in the /proc/vmstat field it reads, as
// pmdalinux's do, so the key and the written-out name cannot drift apart.
func TestVMStatNamesMatchKeys(t *testing.T) {
	for _, m := range vmstatAllMetrics() {
		if !strings.HasSuffix(m.desc.Name, "hostcache.mem.vmstat."+m.key) {
			t.Errorf("%s reads field %s", m.desc.Name, m.key)
		}
	}
}
