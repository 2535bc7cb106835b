package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixture testdata/misc/current: a current kernel prints neither nr_slab
// nor thp_split; pmdalinux makes them up from their successors.
func TestVMStatOlderFallbacks(t *testing.T) {
	h := newHarness(t, NewVMStatCollector, "misc/current/proc")
	h.MustSample(t0)
	const n = cache.InstNone
	h.WantU64("mem.vmstat.nr_slab", n, 150) // nr_slab_reclaimable 100 + nr_slab_unreclaimable 50
	h.WantU64("mem.vmstat.thp_split", n, 4) // thp_split_page 3 + thp_split_page_failed 1
	for _, absent := range []string{"pgrefill_normal", "kswapd_steal", "workingset_refault", "nr_bounce"} {
		h.WantAbsent("mem.vmstat."+absent, n)
	}
}

// Fixture testdata/misc/older: a kernel before 4.8 prints the fields
// itself, and its own nr_slab and thp_split win over the sums.
func TestVMStatOlderFields(t *testing.T) {
	h := newHarness(t, NewVMStatCollector, "misc/older/proc")
	h.MustSample(t0)
	const n = cache.InstNone
	want := map[string]uint64{"nr_slab": 999, "thp_split": 12, "nr_bounce": 2, "nr_writeback_temp": 4,
		"pgrefill_normal": 77, "pgrefill_dma32": 6, "pgsteal_normal": 30, "pgsteal_dma32": 8,
		"pgscan_kswapd_normal": 40, "pgscan_direct_normal": 20, "kswapd_steal": 9,
		"workingset_refault": 5, "workingset_activate": 6, "workingset_restore": 7}
	for key, v := range want {
		h.WantU64("mem.vmstat."+key, n, v)
	}
	// pmdalinux's totals add the per-zone fields it knows.
	h.WantU64("mem.vmstat.pgsteal_total", n, 38)       // pgsteal_normal 30 + pgsteal_dma32 8
	h.WantU64("mem.vmstat.pgscan_kswapd_total", n, 40) // pgscan_kswapd_normal
	h.WantU64("mem.vmstat.pgscan_direct_total", n, 20) // pgscan_direct_normal
	h.WantAbsent("mem.vmstat.pgrefill_high", n)
	if _, ok := h.Store.Schema().Lookup(engine.Prefix + "rate.mem.vmstat.pgrefill_normal"); !ok {
		t.Error("a counter of an older kernel has no rate")
	}
}
