package collector

import (
	"fmt"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// vmstatMetrics is the subset of pmdalinux's mem.vmstat.* we export: what
// administrators chart for paging, swapping, reclaim, writeback, THP and
// the OOM killer. Each has pmdalinux's item, semantics and units (some
// page counts are "count", some "none", as pmdalinux has them). The key is
// the /proc/vmstat field; a key this kernel lacks (allocstall was split by
// zone in 4.8) publishes no value.
var vmstatMetrics = []struct {
	key  string // the /proc/vmstat field, the name's last part
	desc cache.Desc
}{
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

// vmstatSource says where a metric's value comes from: one field of
// /proc/vmstat, or, for a total, the fields it adds up.
type vmstatSource struct {
	slot  int   // the field's slot in the vmstatSample
	parts []int // a total's fields' slots; nil for a plain field
	total bool
}

// newVMStatSources gives each of vmstatMetrics its source, and the sample
// that holds every field they need.
func newVMStatSources() ([]vmstatSource, *kernel.VMStat) {
	var names []string
	for _, m := range vmstatMetrics {
		if parts, isTotal := vmstatTotalParts[m.key]; isTotal {
			names = append(names, parts...)
		} else {
			names = append(names, m.key)
		}
	}
	vm := kernel.NewVMStat(names...)
	src := make([]vmstatSource, len(vmstatMetrics))
	for i, m := range vmstatMetrics {
		if parts, isTotal := vmstatTotalParts[m.key]; isTotal {
			src[i].total = true
			for _, p := range parts {
				src[i].parts = append(src[i].parts, vm.Slot[p])
			}
		} else {
			src[i].slot = vm.Slot[m.key]
		}
	}
	return src, vm
}

// value returns the metric's value in vm. A total always has a value, 0
// when no part is present, as in pmdalinux.
func (s *vmstatSource) value(vm *kernel.VMStat) (uint64, bool) {
	if !s.total {
		return vm.Val[s.slot], vm.Has[s.slot]
	}
	var sum uint64
	for _, p := range s.parts {
		if vm.Has[p] {
			sum += vm.Val[p]
		}
	}
	return sum, true
}

// vmstatCollector reads /proc/vmstat, which procfs has no parser for.
type vmstatCollector struct {
	file  *kernel.File
	buf   []byte // the file's text, reused
	vm    *kernel.VMStat
	src   []vmstatSource // in vmstatMetrics order
	descs []cache.Desc   // in vmstatMetrics order
}

// NewVMStatCollector checks the /proc root below env.Proc.
func NewVMStatCollector(env engine.Env) (engine.Collector, error) {
	path, err := procFile(env, "vmstat")
	if err != nil {
		return nil, fmt.Errorf("vmstat: %w", err)
	}
	c := &vmstatCollector{file: kernel.NewFile(env.Proc, path), buf: make([]byte, 0, 8192)}
	c.src, c.vm = newVMStatSources()
	for _, m := range vmstatMetrics {
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
