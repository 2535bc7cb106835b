package collector

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// memValue reads one metric from a parsed /proc/meminfo; false means the
// kernel did not report what it needs, so no value is published (never 0).
type memValue func(m *procfs.Meminfo) (uint64, bool)

// memMetrics lists mem.physmem and the mem.util.* metrics. Each item is the
// item pmdalinux gives the same metric in its meminfo cluster, so the two
// PMIDs differ only in domain and cluster. The gaps are pmdalinux metrics
// outside our scope (6-11: swap.*, hinv.*, mem.freemem; 59: hinv.hugepagesize)
// and these, which modern kernels do not report and procfs does not parse:
// mem.util.shared (3, MemShared: 2.4 kernels), highTotal, highFree, lowTotal,
// lowFree (16-19: 32-bit HIGHMEM kernels), reverseMaps (28), mmap_copy (53),
// quicklists (54).
var memMetrics = []struct {
	item  uint32
	name  string
	sem   cache.Sem
	units cache.Units
	value memValue
}{
	{0, "mem.physmem", cache.SemDiscrete, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.MemTotal })},
	{1, "mem.util.used", cache.SemInstant, cache.UnitsKByte, memUsed},
	{2, "mem.util.free", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.MemFree })},
	{4, "mem.util.bufmem", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Buffers })},
	{5, "mem.util.cached", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Cached })},
	{12, "mem.util.other", cache.SemInstant, cache.UnitsKByte, memOther},
	{13, "mem.util.swapCached", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.SwapCached })},
	{14, "mem.util.active", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Active })},
	{15, "mem.util.inactive", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Inactive })},
	{20, "mem.util.swapTotal", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.SwapTotal })},
	{21, "mem.util.swapFree", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.SwapFree })},
	{22, "mem.util.dirty", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Dirty })},
	{23, "mem.util.writeback", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Writeback })},
	{24, "mem.util.mapped", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Mapped })},
	{25, "mem.util.slab", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Slab })},
	{26, "mem.util.committed_AS", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.CommittedAS })},
	{27, "mem.util.pageTables", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.PageTables })},
	{29, "mem.util.cache_clean", cache.SemInstant, cache.UnitsKByte, memCacheClean},
	{30, "mem.util.anonpages", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.AnonPages })},
	{31, "mem.util.commitLimit", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.CommitLimit })},
	{32, "mem.util.bounce", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Bounce })},
	{33, "mem.util.NFS_Unstable", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.NFSUnstable })},
	{34, "mem.util.slabReclaimable", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.SReclaimable })},
	{35, "mem.util.slabUnreclaimable", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.SUnreclaim })},
	{36, "mem.util.active_anon", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.ActiveAnon })},
	{37, "mem.util.inactive_anon", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.InactiveAnon })},
	{38, "mem.util.active_file", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.ActiveFile })},
	{39, "mem.util.inactive_file", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.InactiveFile })},
	{40, "mem.util.unevictable", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Unevictable })},
	{41, "mem.util.mlocked", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Mlocked })},
	{42, "mem.util.shmem", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.Shmem })},
	{43, "mem.util.kernelStack", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.KernelStack })},
	{44, "mem.util.hugepagesTotal", cache.SemInstant, cache.UnitsCount, field(func(m *procfs.Meminfo) *uint64 { return m.HugePagesTotal })},
	{45, "mem.util.hugepagesFree", cache.SemInstant, cache.UnitsCount, field(func(m *procfs.Meminfo) *uint64 { return m.HugePagesFree })},
	{46, "mem.util.hugepagesRsvd", cache.SemInstant, cache.UnitsCount, field(func(m *procfs.Meminfo) *uint64 { return m.HugePagesRsvd })},
	{47, "mem.util.hugepagesSurp", cache.SemInstant, cache.UnitsCount, field(func(m *procfs.Meminfo) *uint64 { return m.HugePagesSurp })},
	{48, "mem.util.directMap4k", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.DirectMap4k })},
	{49, "mem.util.directMap2M", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.DirectMap2M })},
	{50, "mem.util.vmallocTotal", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.VmallocTotal })},
	{51, "mem.util.vmallocUsed", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.VmallocUsed })},
	{52, "mem.util.vmallocChunk", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.VmallocChunk })},
	{55, "mem.util.corrupthardware", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.HardwareCorrupted })},
	{56, "mem.util.anonhugepages", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.AnonHugePages })},
	{57, "mem.util.directMap1G", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.DirectMap1G })},
	// Kernels before 3.14 lack MemAvailable; pmdalinux then estimates it from
	// /proc/zoneinfo, which we do not read, so there it has no value.
	{58, "mem.util.available", cache.SemInstant, cache.UnitsKByte, field(func(m *procfs.Meminfo) *uint64 { return m.MemAvailable })},
	{60, "mem.util.hugepagesTotalBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(func(m *procfs.Meminfo) *uint64 { return m.HugePagesTotal })},
	{61, "mem.util.hugepagesFreeBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(func(m *procfs.Meminfo) *uint64 { return m.HugePagesFree })},
	{62, "mem.util.hugepagesRsvdBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(func(m *procfs.Meminfo) *uint64 { return m.HugePagesRsvd })},
	{63, "mem.util.hugepagesSurpBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(func(m *procfs.Meminfo) *uint64 { return m.HugePagesSurp })},
}

// field publishes a meminfo line unchanged (kB, or a count for HugePages_*).
func field(get func(m *procfs.Meminfo) *uint64) memValue {
	return func(m *procfs.Meminfo) (uint64, bool) {
		p := get(m)
		if p == nil {
			return 0, false
		}
		return *p, true
	}
}

// memUsed is pmdalinux's MemTotal - MemFree.
func memUsed(m *procfs.Meminfo) (uint64, bool) {
	return clampedSub(m.MemTotal, m.MemFree)
}

// memOther is pmdalinux's MemTotal - MemFree - Cached - Buffers, floored at 0.
func memOther(m *procfs.Meminfo) (uint64, bool) {
	return clampedSub(m.MemTotal, m.MemFree, m.Cached, m.Buffers)
}

// memCacheClean is pmdalinux's Cached - Dirty - Writeback, floored at 0.
func memCacheClean(m *procfs.Meminfo) (uint64, bool) {
	return clampedSub(m.Cached, m.Dirty, m.Writeback)
}

// clampedSub returns from minus every one of subs, floored at 0 as pmdalinux
// floors its signed result, or false when any operand is absent.
func clampedSub(from *uint64, subs ...*uint64) (uint64, bool) {
	if from == nil {
		return 0, false
	}
	v := *from
	for _, s := range subs {
		if s == nil {
			return 0, false
		}
		if *s >= v {
			v = 0
			continue
		}
		v -= *s
	}
	return v, true
}

// hugeBytes is a HugePages_* count times Hugepagesize (kB) in bytes. Unlike
// pmdalinux, which multiplies by its -1 "absent" marker, a missing
// Hugepagesize gives no value.
func hugeBytes(count func(m *procfs.Meminfo) *uint64) memValue {
	return func(m *procfs.Meminfo) (uint64, bool) {
		n, sizeKB := count(m), m.Hugepagesize
		if n == nil || sizeKB == nil {
			return 0, false
		}
		// Overflow checks: nonsense input gives no value, not a wrapped one.
		hi1, size := bits.Mul64(*sizeKB, 1024)
		hi2, v := bits.Mul64(*n, size)
		return v, hi1 == 0 && hi2 == 0
	}
}

// memCollector reads /proc/meminfo. Nothing in it is a counter: no rates.
type memCollector struct {
	fs    procfs.FS
	descs []cache.Desc // in memMetrics order
}

// NewMemoryCollector opens /proc below p.Proc.
func NewMemoryCollector(p Env) (Collector, error) {
	fs, err := procfs.NewFS(p.Proc)
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	c := &memCollector{fs: fs}
	for _, m := range memMetrics {
		c.descs = append(c.descs, metric(clusterMeminfo, m.item, m.name, cache.TypeU64, m.sem, m.units, cache.InDomNone))
	}
	return c, nil
}

func (c *memCollector) Name() string { return "memory" }

func (c *memCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: append([]cache.Desc(nil), c.descs...)}
}

// Sample reads /proc/meminfo once.
func (c *memCollector) Sample(b *cache.Builder, _ time.Time) error {
	m, err := c.fs.Meminfo()
	if err != nil {
		return fmt.Errorf("reading meminfo: %w", err)
	}
	for i, mm := range memMetrics {
		if v, ok := mm.value(&m); ok {
			b.SetU64(c.descs[i].ID, cache.InstNone, v)
		}
	}
	return nil
}
