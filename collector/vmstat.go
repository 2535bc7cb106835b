package collector

import (
	"fmt"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// vmstatMetrics are pmdalinux's mem.vmstat.*: first what administrators
// chart for paging, swapping, reclaim, writeback, THP and the OOM killer,
// then every other field it knows that a current kernel prints. Each has pmdalinux's item, semantics and units (some
// page counts are "count", some "none", as pmdalinux has them). The key is
// the /proc/vmstat field; a key this kernel lacks (allocstall was split by
// zone in 4.8) publishes no value.
var vmstatMetrics = []vmstatMetric{
	{"nr_dirty", engine.Metric("hostcache.mem.vmstat.nr_dirty", clusterVmstat, 0, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_writeback", engine.Metric("hostcache.mem.vmstat.nr_writeback", clusterVmstat, 1, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_page_table_pages", engine.Metric("hostcache.mem.vmstat.nr_page_table_pages", clusterVmstat, 3, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_mapped", engine.Metric("hostcache.mem.vmstat.nr_mapped", clusterVmstat, 4, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"pgpgin", engine.Metric("hostcache.mem.vmstat.pgpgin", clusterVmstat, 6, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgpgout", engine.Metric("hostcache.mem.vmstat.pgpgout", clusterVmstat, 7, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pswpin", engine.Metric("hostcache.mem.vmstat.pswpin", clusterVmstat, 8, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pswpout", engine.Metric("hostcache.mem.vmstat.pswpout", clusterVmstat, 9, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgfree", engine.Metric("hostcache.mem.vmstat.pgfree", clusterVmstat, 13, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgactivate", engine.Metric("hostcache.mem.vmstat.pgactivate", clusterVmstat, 14, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgdeactivate", engine.Metric("hostcache.mem.vmstat.pgdeactivate", clusterVmstat, 15, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgfault", engine.Metric("hostcache.mem.vmstat.pgfault", clusterVmstat, 16, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgmajfault", engine.Metric("hostcache.mem.vmstat.pgmajfault", clusterVmstat, 17, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"allocstall", engine.Metric("hostcache.mem.vmstat.allocstall", clusterVmstat, 35, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_slab_reclaimable", engine.Metric("hostcache.mem.vmstat.nr_slab_reclaimable", clusterVmstat, 37, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_slab_unreclaimable", engine.Metric("hostcache.mem.vmstat.nr_slab_unreclaimable", clusterVmstat, 38, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_anon_pages", engine.Metric("hostcache.mem.vmstat.nr_anon_pages", clusterVmstat, 39, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_file_pages", engine.Metric("hostcache.mem.vmstat.nr_file_pages", clusterVmstat, 41, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_free_pages", engine.Metric("hostcache.mem.vmstat.nr_free_pages", clusterVmstat, 47, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_shmem", engine.Metric("hostcache.mem.vmstat.nr_shmem", clusterVmstat, 54, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"compact_fail", engine.Metric("hostcache.mem.vmstat.compact_fail", clusterVmstat, 58, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_stall", engine.Metric("hostcache.mem.vmstat.compact_stall", clusterVmstat, 61, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_success", engine.Metric("hostcache.mem.vmstat.compact_success", clusterVmstat, 62, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_fault_alloc", engine.Metric("hostcache.mem.vmstat.thp_fault_alloc", clusterVmstat, 73, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_fault_fallback", engine.Metric("hostcache.mem.vmstat.thp_fault_fallback", clusterVmstat, 74, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_collapse_alloc", engine.Metric("hostcache.mem.vmstat.thp_collapse_alloc", clusterVmstat, 75, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_anon_transparent_hugepages", engine.Metric("hostcache.mem.vmstat.nr_anon_transparent_hugepages", clusterVmstat, 90, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_dirtied", engine.Metric("hostcache.mem.vmstat.nr_dirtied", clusterVmstat, 91, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_dirty_background_threshold", engine.Metric("hostcache.mem.vmstat.nr_dirty_background_threshold", clusterVmstat, 92, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_dirty_threshold", engine.Metric("hostcache.mem.vmstat.nr_dirty_threshold", clusterVmstat, 93, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_written", engine.Metric("hostcache.mem.vmstat.nr_written", clusterVmstat, 94, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct", engine.Metric("hostcache.mem.vmstat.pgscan_direct", clusterVmstat, 146, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_kswapd", engine.Metric("hostcache.mem.vmstat.pgscan_kswapd", clusterVmstat, 148, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_direct", engine.Metric("hostcache.mem.vmstat.pgsteal_direct", clusterVmstat, 149, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_kswapd", engine.Metric("hostcache.mem.vmstat.pgsteal_kswapd", clusterVmstat, 150, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"allocstall_dma", engine.Metric("hostcache.mem.vmstat.allocstall_dma", clusterVmstat, 154, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"allocstall_dma32", engine.Metric("hostcache.mem.vmstat.allocstall_dma32", clusterVmstat, 155, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"allocstall_movable", engine.Metric("hostcache.mem.vmstat.allocstall_movable", clusterVmstat, 157, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"allocstall_normal", engine.Metric("hostcache.mem.vmstat.allocstall_normal", clusterVmstat, 158, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"oom_kill", engine.Metric("hostcache.mem.vmstat.oom_kill", clusterVmstat, 166, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgsteal_file", engine.Metric("hostcache.mem.vmstat.pgsteal_file", clusterVmstat, 167, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"swap_ra", engine.Metric("hostcache.mem.vmstat.swap_ra", clusterVmstat, 168, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"swap_ra_hit", engine.Metric("hostcache.mem.vmstat.swap_ra_hit", clusterVmstat, 169, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	// Sums, computed as pmdalinux computes them (see vmstatTotals).
	{vmstatScanDirectTotal, engine.Metric("hostcache.mem.vmstat.pgscan_direct_total", clusterVmstat, 176, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{vmstatScanKswapdTotal, engine.Metric("hostcache.mem.vmstat.pgscan_kswapd_total", clusterVmstat, 177, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{vmstatStealTotal, engine.Metric("hostcache.mem.vmstat.pgsteal_total", clusterVmstat, 178, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	// The rest of pmdalinux's mem.vmstat.* that this kernel prints.
	{"balloon_deflate", engine.Metric("hostcache.mem.vmstat.balloon_deflate", clusterVmstat, 103, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"balloon_inflate", engine.Metric("hostcache.mem.vmstat.balloon_inflate", clusterVmstat, 104, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"balloon_migrate", engine.Metric("hostcache.mem.vmstat.balloon_migrate", clusterVmstat, 105, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_daemon_free_scanned", engine.Metric("hostcache.mem.vmstat.compact_daemon_free_scanned", clusterVmstat, 159, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_daemon_migrate_scanned", engine.Metric("hostcache.mem.vmstat.compact_daemon_migrate_scanned", clusterVmstat, 160, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_daemon_wake", engine.Metric("hostcache.mem.vmstat.compact_daemon_wake", clusterVmstat, 106, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_free_scanned", engine.Metric("hostcache.mem.vmstat.compact_free_scanned", clusterVmstat, 107, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_isolated", engine.Metric("hostcache.mem.vmstat.compact_isolated", clusterVmstat, 126, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"compact_migrate_scanned", engine.Metric("hostcache.mem.vmstat.compact_migrate_scanned", clusterVmstat, 108, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"drop_pagecache", engine.Metric("hostcache.mem.vmstat.drop_pagecache", clusterVmstat, 109, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"drop_slab", engine.Metric("hostcache.mem.vmstat.drop_slab", clusterVmstat, 110, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"htlb_buddy_alloc_fail", engine.Metric("hostcache.mem.vmstat.htlb_buddy_alloc_fail", clusterVmstat, 43, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"htlb_buddy_alloc_success", engine.Metric("hostcache.mem.vmstat.htlb_buddy_alloc_success", clusterVmstat, 44, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"kswapd_inodesteal", engine.Metric("hostcache.mem.vmstat.kswapd_inodesteal", clusterVmstat, 33, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"kswapd_low_wmark_hit_quickly", engine.Metric("hostcache.mem.vmstat.kswapd_low_wmark_hit_quickly", clusterVmstat, 87, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"kswapd_high_wmark_hit_quickly", engine.Metric("hostcache.mem.vmstat.kswapd_high_wmark_hit_quickly", clusterVmstat, 88, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_active_anon", engine.Metric("hostcache.mem.vmstat.nr_active_anon", clusterVmstat, 45, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_active_file", engine.Metric("hostcache.mem.vmstat.nr_active_file", clusterVmstat, 46, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_file_hugepages", engine.Metric("hostcache.mem.vmstat.nr_file_hugepages", clusterVmstat, 161, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_file_pmdmapped", engine.Metric("hostcache.mem.vmstat.nr_file_pmdmapped", clusterVmstat, 162, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_foll_pin_acquired", engine.Metric("hostcache.mem.vmstat.nr_foll_pin_acquired", clusterVmstat, 163, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_foll_pin_released", engine.Metric("hostcache.mem.vmstat.nr_foll_pin_released", clusterVmstat, 164, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_free_cma", engine.Metric("hostcache.mem.vmstat.nr_free_cma", clusterVmstat, 111, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_inactive_anon", engine.Metric("hostcache.mem.vmstat.nr_inactive_anon", clusterVmstat, 48, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_inactive_file", engine.Metric("hostcache.mem.vmstat.nr_inactive_file", clusterVmstat, 49, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_isolated_anon", engine.Metric("hostcache.mem.vmstat.nr_isolated_anon", clusterVmstat, 50, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_isolated_file", engine.Metric("hostcache.mem.vmstat.nr_isolated_file", clusterVmstat, 51, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_kernel_misc_reclaimable", engine.Metric("hostcache.mem.vmstat.nr_kernel_misc_reclaimable", clusterVmstat, 165, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_kernel_stack", engine.Metric("hostcache.mem.vmstat.nr_kernel_stack", clusterVmstat, 52, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_mlock", engine.Metric("hostcache.mem.vmstat.nr_mlock", clusterVmstat, 53, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_shmem_hugepages", engine.Metric("hostcache.mem.vmstat.nr_shmem_hugepages", clusterVmstat, 127, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_shmem_pmdmapped", engine.Metric("hostcache.mem.vmstat.nr_shmem_pmdmapped", clusterVmstat, 128, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_unevictable", engine.Metric("hostcache.mem.vmstat.nr_unevictable", clusterVmstat, 55, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_unstable", engine.Metric("hostcache.mem.vmstat.nr_unstable", clusterVmstat, 2, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)},
	{"nr_vmscan_immediate_reclaim", engine.Metric("hostcache.mem.vmstat.nr_vmscan_immediate_reclaim", clusterVmstat, 113, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_vmscan_write", engine.Metric("hostcache.mem.vmstat.nr_vmscan_write", clusterVmstat, 42, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_active_anon", engine.Metric("hostcache.mem.vmstat.nr_zone_active_anon", clusterVmstat, 130, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_active_file", engine.Metric("hostcache.mem.vmstat.nr_zone_active_file", clusterVmstat, 132, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_inactive_anon", engine.Metric("hostcache.mem.vmstat.nr_zone_inactive_anon", clusterVmstat, 129, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_inactive_file", engine.Metric("hostcache.mem.vmstat.nr_zone_inactive_file", clusterVmstat, 131, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_unevictable", engine.Metric("hostcache.mem.vmstat.nr_zone_unevictable", clusterVmstat, 133, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zone_write_pending", engine.Metric("hostcache.mem.vmstat.nr_zone_write_pending", clusterVmstat, 134, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"nr_zspages", engine.Metric("hostcache.mem.vmstat.nr_zspages", clusterVmstat, 135, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)},
	{"numa_foreign", engine.Metric("hostcache.mem.vmstat.numa_foreign", clusterVmstat, 95, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_hint_faults", engine.Metric("hostcache.mem.vmstat.numa_hint_faults", clusterVmstat, 152, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_hint_faults_local", engine.Metric("hostcache.mem.vmstat.numa_hint_faults_local", clusterVmstat, 153, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_hit", engine.Metric("hostcache.mem.vmstat.numa_hit", clusterVmstat, 96, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_huge_pte_updates", engine.Metric("hostcache.mem.vmstat.numa_huge_pte_updates", clusterVmstat, 151, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_interleave", engine.Metric("hostcache.mem.vmstat.numa_interleave", clusterVmstat, 97, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_local", engine.Metric("hostcache.mem.vmstat.numa_local", clusterVmstat, 98, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_miss", engine.Metric("hostcache.mem.vmstat.numa_miss", clusterVmstat, 99, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_other", engine.Metric("hostcache.mem.vmstat.numa_other", clusterVmstat, 100, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_pages_migrated", engine.Metric("hostcache.mem.vmstat.numa_pages_migrated", clusterVmstat, 114, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"numa_pte_updates", engine.Metric("hostcache.mem.vmstat.numa_pte_updates", clusterVmstat, 115, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pageoutrun", engine.Metric("hostcache.mem.vmstat.pageoutrun", clusterVmstat, 34, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgalloc_dma", engine.Metric("hostcache.mem.vmstat.pgalloc_dma", clusterVmstat, 12, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgalloc_dma32", engine.Metric("hostcache.mem.vmstat.pgalloc_dma32", clusterVmstat, 63, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgalloc_movable", engine.Metric("hostcache.mem.vmstat.pgalloc_movable", clusterVmstat, 64, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgalloc_normal", engine.Metric("hostcache.mem.vmstat.pgalloc_normal", clusterVmstat, 11, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pginodesteal", engine.Metric("hostcache.mem.vmstat.pginodesteal", clusterVmstat, 30, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pglazyfreed", engine.Metric("hostcache.mem.vmstat.pglazyfreed", clusterVmstat, 116, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgmigrate_fail", engine.Metric("hostcache.mem.vmstat.pgmigrate_fail", clusterVmstat, 117, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgmigrate_success", engine.Metric("hostcache.mem.vmstat.pgmigrate_success", clusterVmstat, 118, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgrotated", engine.Metric("hostcache.mem.vmstat.pgrotated", clusterVmstat, 36, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"pgscan_direct_throttle", engine.Metric("hostcache.mem.vmstat.pgscan_direct_throttle", clusterVmstat, 147, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"slabs_scanned", engine.Metric("hostcache.mem.vmstat.slabs_scanned", clusterVmstat, 31, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_collapse_alloc_failed", engine.Metric("hostcache.mem.vmstat.thp_collapse_alloc_failed", clusterVmstat, 76, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_deferred_split_page", engine.Metric("hostcache.mem.vmstat.thp_deferred_split_page", clusterVmstat, 119, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_fault_fallback_charge", engine.Metric("hostcache.mem.vmstat.thp_fault_fallback_charge", clusterVmstat, 170, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_file_alloc", engine.Metric("hostcache.mem.vmstat.thp_file_alloc", clusterVmstat, 136, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_file_mapped", engine.Metric("hostcache.mem.vmstat.thp_file_mapped", clusterVmstat, 137, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_split_page", engine.Metric("hostcache.mem.vmstat.thp_split_page", clusterVmstat, 120, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_split_page_failed", engine.Metric("hostcache.mem.vmstat.thp_split_page_failed", clusterVmstat, 121, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_split_pmd", engine.Metric("hostcache.mem.vmstat.thp_split_pmd", clusterVmstat, 122, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_split_pud", engine.Metric("hostcache.mem.vmstat.thp_split_pud", clusterVmstat, 171, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_swpout", engine.Metric("hostcache.mem.vmstat.thp_swpout", clusterVmstat, 172, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_swpout_fallback", engine.Metric("hostcache.mem.vmstat.thp_swpout_fallback", clusterVmstat, 173, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_zero_page_alloc", engine.Metric("hostcache.mem.vmstat.thp_zero_page_alloc", clusterVmstat, 101, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"thp_zero_page_alloc_failed", engine.Metric("hostcache.mem.vmstat.thp_zero_page_alloc_failed", clusterVmstat, 102, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_cleared", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_cleared", clusterVmstat, 78, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_culled", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_culled", clusterVmstat, 79, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_mlocked", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_mlocked", clusterVmstat, 80, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_munlocked", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_munlocked", clusterVmstat, 82, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_rescued", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_rescued", clusterVmstat, 83, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_scanned", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_scanned", clusterVmstat, 84, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"unevictable_pgs_stranded", engine.Metric("hostcache.mem.vmstat.unevictable_pgs_stranded", clusterVmstat, 85, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"workingset_nodes", engine.Metric("hostcache.mem.vmstat.workingset_nodes", clusterVmstat, 174, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"workingset_nodereclaim", engine.Metric("hostcache.mem.vmstat.workingset_nodereclaim", clusterVmstat, 124, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
	{"zone_reclaim_failed", engine.Metric("hostcache.mem.vmstat.zone_reclaim_failed", clusterVmstat, 86, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)},
}

const (
	vmstatScanDirectTotal = "pgscan_direct_total"
	vmstatScanKswapdTotal = "pgscan_kswapd_total"
	vmstatStealTotal      = "pgsteal_total"
)

// vmstatTotalParts lists, for each total, the /proc/vmstat fields
// pmdalinux (PCP 6.0.3) adds up: those of its own field table that start
// with the total's prefix. Fields it does not know are not added, and
// those it does are all added, even where they overlap: on current kernels
// pgsteal_total is pgsteal_kswapd + pgsteal_direct + pgsteal_file (file is
// a share of the first two), and pgscan_direct_total includes
// pgscan_direct_throttle, a count of throttling events. We keep pmdalinux's
// figures so that hostcache.X and X agree.
var vmstatTotalParts = map[string][]string{
	vmstatScanDirectTotal: {"pgscan_direct", "pgscan_direct_dma", "pgscan_direct_dma32", "pgscan_direct_high",
		"pgscan_direct_movable", "pgscan_direct_normal", "pgscan_direct_throttle"},
	vmstatScanKswapdTotal: {"pgscan_kswapd", "pgscan_kswapd_dma", "pgscan_kswapd_dma32", "pgscan_kswapd_high",
		"pgscan_kswapd_movable", "pgscan_kswapd_normal"},
	vmstatStealTotal: {"pgsteal_direct", "pgsteal_direct_dma", "pgsteal_direct_dma32", "pgsteal_direct_movable",
		"pgsteal_direct_normal", "pgsteal_dma", "pgsteal_dma32", "pgsteal_file", "pgsteal_high", "pgsteal_kswapd",
		"pgsteal_kswapd_dma", "pgsteal_kswapd_dma32", "pgsteal_kswapd_movable", "pgsteal_kswapd_normal",
		"pgsteal_movable", "pgsteal_normal"},
}

// vmstatMetric is one mem.vmstat.* metric and its /proc/vmstat field.
type vmstatMetric struct {
	key  string // the /proc/vmstat field, the name's last part
	desc cache.Desc
}

// vmstatSource says where a metric's value comes from: one field of
// /proc/vmstat, or, for a total, the fields it adds up.
type vmstatSource struct {
	slot  int   // the field's slot in the vmstatSample
	parts []int // a total's fields' slots; nil for a plain field
	total bool
}

// newVMStatSources gives each metric its source, and the sample that
// holds every field they need.
func newVMStatSources(metrics []vmstatMetric) ([]vmstatSource, *kernel.VMStat) {
	var names []string
	for _, m := range metrics {
		names = append(names, m.key)
		names = append(names, vmstatTotalParts[m.key]...)
		names = append(names, vmstatFallbackParts[m.key]...)
	}
	vm := kernel.NewVMStat(names...)
	src := make([]vmstatSource, len(metrics))
	for i, m := range metrics {
		src[i].slot = vm.Slot[m.key]
		parts, isTotal := vmstatTotalParts[m.key]
		if !isTotal {
			parts = vmstatFallbackParts[m.key]
		}
		src[i].total = isTotal
		for _, p := range parts {
			src[i].parts = append(src[i].parts, vm.Slot[p])
		}
	}
	return src, vm
}

// value returns the metric's value in vm. A total always has a value, 0
// when no part is present, as in pmdalinux. A field with a fallback is
// the sum of its present parts when the kernel does not print it, and has
// no value when none of them is printed either.
func (s *vmstatSource) value(vm *kernel.VMStat) (uint64, bool) {
	if !s.total && vm.Has[s.slot] {
		return vm.Val[s.slot], true
	}
	var sum uint64
	found := s.total
	for _, p := range s.parts {
		if vm.Has[p] {
			sum += vm.Val[p]
			found = true
		}
	}
	return sum, found
}

// vmstatCollector reads /proc/vmstat, which procfs has no parser for.
type vmstatCollector struct {
	file  *kernel.File
	buf   []byte // the file's text, reused
	vm    *kernel.VMStat
	src   []vmstatSource // in vmstatAllMetrics order
	descs []cache.Desc   // in vmstatAllMetrics order
}

// NewVMStatCollector checks the /proc root below env.Proc.
func NewVMStatCollector(env engine.Env) (engine.Collector, error) {
	path, err := procFile(env, "vmstat")
	if err != nil {
		return nil, fmt.Errorf("vmstat: %w", err)
	}
	c := &vmstatCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles), buf: make([]byte, 0, 8192)}
	metrics := vmstatAllMetrics()
	c.src, c.vm = newVMStatSources(metrics)
	for _, m := range metrics {
		c.descs = append(c.descs, m.desc)
	}
	return c, nil
}

func (c *vmstatCollector) Name() string { return "vmstat" }

func (c *vmstatCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: c.descs}
}

// Sample reads /proc/vmstat once.
func (c *vmstatCollector) Sample(b *cache.Builder, now time.Time) error {
	if err := readVMStat(c.file, &c.buf, c.vm); err != nil {
		return err
	}
	for i := range c.descs {
		d := &c.descs[i]
		v, ok := c.src[i].value(c.vm)
		switch {
		case !ok:
		case d.Sem == cache.SemCounter:
			b.SetU64(d.ID, cache.InstNone, v)
		default:
			b.SetU64(d.ID, cache.InstNone, v)
		}
	}
	return nil
}

// readVMStat reads and parses a /proc/vmstat file into vm, reusing *buf.
func readVMStat(f *kernel.File, buf *[]byte, vm *kernel.VMStat) error {
	var err error
	if *buf, err = f.Read(*buf); err != nil {
		return fmt.Errorf("reading vmstat: %w", err)
	}
	if err := kernel.ParseVMStat(*buf, vm); err != nil {
		return fmt.Errorf("parsing %s: %w", f.Path, err)
	}
	return nil
}
