package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// vmstatOlderMetrics are the mem.vmstat.* fields pmdalinux knows that only
// older kernels print: the per-zone reclaim counters split out before 4.8
// (pgrefill_*, pgscan_*_dma, pgsteal_*_normal, ...), the compaction and
// kswapd counters 3.x renamed, the plain workingset_* counters 5.9 split
// into anon and file, and nr_slab and thp_split, which pmdalinux makes up
// from their successors when the kernel does not print them
// (vmstatFallbackParts). A field this kernel lacks publishes no value.
var vmstatOlderMetrics = []vmstatMetric{
	{"allocstall_high", engine.Metric("hostcache.mem.vmstat.allocstall_high", clusterVmstat, 156, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_blocks_moved", engine.Metric("hostcache.mem.vmstat.compact_blocks_moved", clusterVmstat, 57, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_pagemigrate_failed", engine.Metric("hostcache.mem.vmstat.compact_pagemigrate_failed", clusterVmstat, 59, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_pages_moved", engine.Metric("hostcache.mem.vmstat.compact_pages_moved", clusterVmstat, 60, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"kswapd_skip_congestion_wait", engine.Metric("hostcache.mem.vmstat.kswapd_skip_congestion_wait", clusterVmstat, 89, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"kswapd_steal", engine.Metric("hostcache.mem.vmstat.kswapd_steal", clusterVmstat, 32, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_bounce", engine.Metric("hostcache.mem.vmstat.nr_bounce", clusterVmstat, 40, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_pages_scanned", engine.Metric("hostcache.mem.vmstat.nr_pages_scanned", clusterVmstat, 112, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_slab", engine.Metric("hostcache.mem.vmstat.nr_slab", clusterVmstat, 5, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_writeback_temp", engine.Metric("hostcache.mem.vmstat.nr_writeback_temp", clusterVmstat, 56, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"pgalloc_high", engine.Metric("hostcache.mem.vmstat.pgalloc_high", clusterVmstat, 10, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrefill_dma", engine.Metric("hostcache.mem.vmstat.pgrefill_dma", clusterVmstat, 20, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrefill_dma32", engine.Metric("hostcache.mem.vmstat.pgrefill_dma32", clusterVmstat, 65, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrefill_high", engine.Metric("hostcache.mem.vmstat.pgrefill_high", clusterVmstat, 18, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrefill_movable", engine.Metric("hostcache.mem.vmstat.pgrefill_movable", clusterVmstat, 66, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrefill_normal", engine.Metric("hostcache.mem.vmstat.pgrefill_normal", clusterVmstat, 19, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_dma", engine.Metric("hostcache.mem.vmstat.pgscan_direct_dma", clusterVmstat, 29, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_dma32", engine.Metric("hostcache.mem.vmstat.pgscan_direct_dma32", clusterVmstat, 67, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_high", engine.Metric("hostcache.mem.vmstat.pgscan_direct_high", clusterVmstat, 27, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_movable", engine.Metric("hostcache.mem.vmstat.pgscan_direct_movable", clusterVmstat, 68, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_normal", engine.Metric("hostcache.mem.vmstat.pgscan_direct_normal", clusterVmstat, 28, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd_dma", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_dma", clusterVmstat, 26, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd_dma32", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_dma32", clusterVmstat, 69, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd_high", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_high", clusterVmstat, 24, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd_movable", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_movable", clusterVmstat, 70, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd_normal", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_normal", clusterVmstat, 25, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_direct_dma", engine.Metric("hostcache.mem.vmstat.pgsteal_direct_dma", clusterVmstat, 142, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_direct_dma32", engine.Metric("hostcache.mem.vmstat.pgsteal_direct_dma32", clusterVmstat, 143, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_direct_movable", engine.Metric("hostcache.mem.vmstat.pgsteal_direct_movable", clusterVmstat, 145, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_direct_normal", engine.Metric("hostcache.mem.vmstat.pgsteal_direct_normal", clusterVmstat, 144, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_dma", engine.Metric("hostcache.mem.vmstat.pgsteal_dma", clusterVmstat, 23, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_dma32", engine.Metric("hostcache.mem.vmstat.pgsteal_dma32", clusterVmstat, 71, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_high", engine.Metric("hostcache.mem.vmstat.pgsteal_high", clusterVmstat, 21, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_kswapd_dma", engine.Metric("hostcache.mem.vmstat.pgsteal_kswapd_dma", clusterVmstat, 138, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_kswapd_dma32", engine.Metric("hostcache.mem.vmstat.pgsteal_kswapd_dma32", clusterVmstat, 139, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_kswapd_movable", engine.Metric("hostcache.mem.vmstat.pgsteal_kswapd_movable", clusterVmstat, 141, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_kswapd_normal", engine.Metric("hostcache.mem.vmstat.pgsteal_kswapd_normal", clusterVmstat, 140, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_movable", engine.Metric("hostcache.mem.vmstat.pgsteal_movable", clusterVmstat, 72, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_normal", engine.Metric("hostcache.mem.vmstat.pgsteal_normal", clusterVmstat, 22, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_split", engine.Metric("hostcache.mem.vmstat.thp_split", clusterVmstat, 77, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_mlockfreed", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_mlockfreed", clusterVmstat, 81, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"workingset_activate", engine.Metric("hostcache.mem.vmstat.workingset_activate", clusterVmstat, 123, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"workingset_refault", engine.Metric("hostcache.mem.vmstat.workingset_refault", clusterVmstat, 125, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"workingset_restore", engine.Metric("hostcache.mem.vmstat.workingset_restore", clusterVmstat, 175, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
}

// vmstatFallbackParts are the fields whose sum stands for a field the
// kernel stopped printing, as pmdalinux sums them: nr_slab was split in
// 2.6.18, thp_split became thp_split_page (and _failed) in 4.5.
var vmstatFallbackParts = map[string][]string{
	"nr_slab":   {"nr_slab_reclaimable", "nr_slab_unreclaimable"},
	"thp_split": {"thp_split_page", "thp_split_page_failed"},
}

// vmstatAllMetrics is every mem.vmstat.* metric, current fields first.
func vmstatAllMetrics() []vmstatMetric {
	all := make([]vmstatMetric, 0, len(vmstatMetrics)+len(vmstatOlderMetrics))
	return append(append(all, vmstatMetrics...), vmstatOlderMetrics...)
}
