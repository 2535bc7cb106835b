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
	item  uint32
	key   string
	sem   cache.Sem
	units cache.Units
}{
	{0, "nr_dirty", cache.SemInstant, cache.UnitsNone},
	{1, "nr_writeback", cache.SemInstant, cache.UnitsNone},
	{3, "nr_page_table_pages", cache.SemInstant, cache.UnitsNone},
	{4, "nr_mapped", cache.SemInstant, cache.UnitsNone},
	{6, "pgpgin", cache.SemCounter, cache.UnitsCount},
	{7, "pgpgout", cache.SemCounter, cache.UnitsCount},
	{8, "pswpin", cache.SemCounter, cache.UnitsCount},
	{9, "pswpout", cache.SemCounter, cache.UnitsCount},
	{13, "pgfree", cache.SemCounter, cache.UnitsCount},
	{14, "pgactivate", cache.SemCounter, cache.UnitsCount},
	{15, "pgdeactivate", cache.SemCounter, cache.UnitsCount},
	{16, "pgfault", cache.SemCounter, cache.UnitsCount},
	{17, "pgmajfault", cache.SemCounter, cache.UnitsCount},
	{35, "allocstall", cache.SemCounter, cache.UnitsCount},
	{37, "nr_slab_reclaimable", cache.SemInstant, cache.UnitsNone},
	{38, "nr_slab_unreclaimable", cache.SemInstant, cache.UnitsNone},
	{39, "nr_anon_pages", cache.SemInstant, cache.UnitsNone},
	{41, "nr_file_pages", cache.SemInstant, cache.UnitsNone},
	{47, "nr_free_pages", cache.SemInstant, cache.UnitsCount},
	{54, "nr_shmem", cache.SemInstant, cache.UnitsCount},
	{58, "compact_fail", cache.SemCounter, cache.UnitsCount},
	{61, "compact_stall", cache.SemCounter, cache.UnitsCount},
	{62, "compact_success", cache.SemCounter, cache.UnitsCount},
	{73, "thp_fault_alloc", cache.SemCounter, cache.UnitsCount},
	{74, "thp_fault_fallback", cache.SemCounter, cache.UnitsCount},
	{75, "thp_collapse_alloc", cache.SemCounter, cache.UnitsCount},
	{90, "nr_anon_transparent_hugepages", cache.SemInstant, cache.UnitsCount},
	{91, "nr_dirtied", cache.SemCounter, cache.UnitsCount},
	{92, "nr_dirty_background_threshold", cache.SemInstant, cache.UnitsCount},
	{93, "nr_dirty_threshold", cache.SemInstant, cache.UnitsCount},
	{94, "nr_written", cache.SemCounter, cache.UnitsCount},
	{146, "pgscan_direct", cache.SemCounter, cache.UnitsCount},
	{148, "pgscan_kswapd", cache.SemCounter, cache.UnitsCount},
	{149, "pgsteal_direct", cache.SemCounter, cache.UnitsCount},
	{150, "pgsteal_kswapd", cache.SemCounter, cache.UnitsCount},
	{154, "allocstall_dma", cache.SemCounter, cache.UnitsCount},
	{155, "allocstall_dma32", cache.SemCounter, cache.UnitsCount},
	{157, "allocstall_movable", cache.SemCounter, cache.UnitsCount},
	{158, "allocstall_normal", cache.SemCounter, cache.UnitsCount},
	{166, "oom_kill", cache.SemCounter, cache.UnitsCount},
	{167, "pgsteal_file", cache.SemCounter, cache.UnitsCount},
	{168, "swap_ra", cache.SemCounter, cache.UnitsCount},
	{169, "swap_ra_hit", cache.SemCounter, cache.UnitsCount},
	// Sums, computed as pmdalinux computes them (see vmstatTotals).
	{176, vmstatScanDirectTotal, cache.SemCounter, cache.UnitsCount},
	{177, vmstatScanKswapdTotal, cache.SemCounter, cache.UnitsCount},
	{178, vmstatStealTotal, cache.SemCounter, cache.UnitsCount},
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
	rates *engine.Rates
}

// NewVMStatCollector checks the /proc root below p.Proc.
func NewVMStatCollector(p engine.Env) (engine.Collector, error) {
	path, err := procFile(p, "vmstat")
	if err != nil {
		return nil, fmt.Errorf("vmstat: %w", err)
	}
	c := &vmstatCollector{file: kernel.NewFile(p.Proc, path), buf: make([]byte, 0, 8192), rates: engine.NewRates()}
	c.src, c.vm = newVMStatSources()
	for _, m := range vmstatMetrics {
		c.descs = append(c.descs, engine.Metric(engine.Prefix+"mem.vmstat."+m.key, clusterVmstat, m.item, cache.TypeU64, m.sem, m.units, cache.InDomNone))
	}
	return c, nil
}

func (c *vmstatCollector) Name() string { return "vmstat" }

func (c *vmstatCollector) Resets() uint64 { return c.rates.Resets }

func (c *vmstatCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: engine.WithRates(c.descs)}
}

// Sample reads /proc/vmstat once.
func (c *vmstatCollector) Sample(b *cache.Builder, now time.Time) error {
	if err := readVMStat(c.file, &c.buf, c.vm); err != nil {
		return err
	}
	c.rates.Begin(now)
	for i := range c.descs {
		d := &c.descs[i]
		v, ok := c.src[i].value(c.vm)
		switch {
		case !ok:
		case d.Sem == cache.SemCounter:
			c.rates.Counter(b, d, cache.InstNone, v)
		default:
			b.SetU64(d.ID, cache.InstNone, v)
		}
	}
	c.rates.Commit()
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
