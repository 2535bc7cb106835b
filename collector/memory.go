package collector

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// memValue reads one metric from a parsed /proc/meminfo; false means the
// kernel did not report what it needs, so no value is published (never 0).
type memValue func(m *kernel.Meminfo) (uint64, bool)

// memMetrics lists mem.physmem and the mem.util.* metrics. Each item is the
// item pmdalinux gives the same metric in its meminfo cluster, so the two
// PMIDs differ only in domain and cluster. The gaps are pmdalinux metrics
// outside our scope (6-11: swap.*, hinv.*, mem.freemem; 59: hinv.hugepagesize)
// and these, which modern kernels do not report and we do not parse:
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
	{0, "mem.physmem", cache.SemDiscrete, cache.UnitsKByte, field(kernel.MemTotal)},
	{1, "mem.util.used", cache.SemInstant, cache.UnitsKByte, memUsed},
	{2, "mem.util.free", cache.SemInstant, cache.UnitsKByte, field(kernel.MemFree)},
	{4, "mem.util.bufmem", cache.SemInstant, cache.UnitsKByte, field(kernel.MemBuffers)},
	{5, "mem.util.cached", cache.SemInstant, cache.UnitsKByte, field(kernel.MemCached)},
	{12, "mem.util.other", cache.SemInstant, cache.UnitsKByte, memOther},
	{13, "mem.util.swapCached", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSwapCached)},
	{14, "mem.util.active", cache.SemInstant, cache.UnitsKByte, field(kernel.MemActive)},
	{15, "mem.util.inactive", cache.SemInstant, cache.UnitsKByte, field(kernel.MemInactive)},
	{20, "mem.util.swapTotal", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSwapTotal)},
	{21, "mem.util.swapFree", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSwapFree)},
	{22, "mem.util.dirty", cache.SemInstant, cache.UnitsKByte, field(kernel.MemDirty)},
	{23, "mem.util.writeback", cache.SemInstant, cache.UnitsKByte, field(kernel.MemWriteback)},
	{24, "mem.util.mapped", cache.SemInstant, cache.UnitsKByte, field(kernel.MemMapped)},
	{25, "mem.util.slab", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSlab)},
	{26, "mem.util.committed_AS", cache.SemInstant, cache.UnitsKByte, field(kernel.MemCommittedAS)},
	{27, "mem.util.pageTables", cache.SemInstant, cache.UnitsKByte, field(kernel.MemPageTables)},
	{29, "mem.util.cache_clean", cache.SemInstant, cache.UnitsKByte, memCacheClean},
	{30, "mem.util.anonpages", cache.SemInstant, cache.UnitsKByte, field(kernel.MemAnonPages)},
	{31, "mem.util.commitLimit", cache.SemInstant, cache.UnitsKByte, field(kernel.MemCommitLimit)},
	{32, "mem.util.bounce", cache.SemInstant, cache.UnitsKByte, field(kernel.MemBounce)},
	{33, "mem.util.NFS_Unstable", cache.SemInstant, cache.UnitsKByte, field(kernel.MemNFSUnstable)},
	{34, "mem.util.slabReclaimable", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSReclaimable)},
	{35, "mem.util.slabUnreclaimable", cache.SemInstant, cache.UnitsKByte, field(kernel.MemSUnreclaim)},
	{36, "mem.util.active_anon", cache.SemInstant, cache.UnitsKByte, field(kernel.MemActiveAnon)},
	{37, "mem.util.inactive_anon", cache.SemInstant, cache.UnitsKByte, field(kernel.MemInactiveAnon)},
	{38, "mem.util.active_file", cache.SemInstant, cache.UnitsKByte, field(kernel.MemActiveFile)},
	{39, "mem.util.inactive_file", cache.SemInstant, cache.UnitsKByte, field(kernel.MemInactiveFile)},
	{40, "mem.util.unevictable", cache.SemInstant, cache.UnitsKByte, field(kernel.MemUnevictable)},
	{41, "mem.util.mlocked", cache.SemInstant, cache.UnitsKByte, field(kernel.MemMlocked)},
	{42, "mem.util.shmem", cache.SemInstant, cache.UnitsKByte, field(kernel.MemShmem)},
	{43, "mem.util.kernelStack", cache.SemInstant, cache.UnitsKByte, field(kernel.MemKernelStack)},
	{44, "mem.util.hugepagesTotal", cache.SemInstant, cache.UnitsCount, field(kernel.MemHugePagesTotal)},
	{45, "mem.util.hugepagesFree", cache.SemInstant, cache.UnitsCount, field(kernel.MemHugePagesFree)},
	{46, "mem.util.hugepagesRsvd", cache.SemInstant, cache.UnitsCount, field(kernel.MemHugePagesRsvd)},
	{47, "mem.util.hugepagesSurp", cache.SemInstant, cache.UnitsCount, field(kernel.MemHugePagesSurp)},
	{48, "mem.util.directMap4k", cache.SemInstant, cache.UnitsKByte, field(kernel.MemDirectMap4k)},
	{49, "mem.util.directMap2M", cache.SemInstant, cache.UnitsKByte, field(kernel.MemDirectMap2M)},
	{50, "mem.util.vmallocTotal", cache.SemInstant, cache.UnitsKByte, field(kernel.MemVmallocTotal)},
	{51, "mem.util.vmallocUsed", cache.SemInstant, cache.UnitsKByte, field(kernel.MemVmallocUsed)},
	{52, "mem.util.vmallocChunk", cache.SemInstant, cache.UnitsKByte, field(kernel.MemVmallocChunk)},
	{55, "mem.util.corrupthardware", cache.SemInstant, cache.UnitsKByte, field(kernel.MemHardwareCorrupted)},
	{56, "mem.util.anonhugepages", cache.SemInstant, cache.UnitsKByte, field(kernel.MemAnonHugePages)},
	{57, "mem.util.directMap1G", cache.SemInstant, cache.UnitsKByte, field(kernel.MemDirectMap1G)},
	// Kernels before 3.14 lack MemAvailable; pmdalinux then estimates it from
	// /proc/zoneinfo, which we do not read, so there it has no value.
	{58, "mem.util.available", cache.SemInstant, cache.UnitsKByte, field(kernel.MemAvailable)},
	{60, "mem.util.hugepagesTotalBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(kernel.MemHugePagesTotal)},
	{61, "mem.util.hugepagesFreeBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(kernel.MemHugePagesFree)},
	{62, "mem.util.hugepagesRsvdBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(kernel.MemHugePagesRsvd)},
	{63, "mem.util.hugepagesSurpBytes", cache.SemInstant, cache.UnitsByte, hugeBytes(kernel.MemHugePagesSurp)},
}

// field publishes a meminfo line unchanged (kB, or a count for HugePages_*).
func field(f kernel.MemField) memValue {
	return func(m *kernel.Meminfo) (uint64, bool) { return m.Get(f) }
}

// memUsed is pmdalinux's MemTotal - MemFree.
func memUsed(m *kernel.Meminfo) (uint64, bool) {
	return clampedSub(m, kernel.MemTotal, kernel.MemFree)
}

// memOther is pmdalinux's MemTotal - MemFree - Cached - Buffers, floored at 0.
func memOther(m *kernel.Meminfo) (uint64, bool) {
	return clampedSub(m, kernel.MemTotal, kernel.MemFree, kernel.MemCached, kernel.MemBuffers)
}

// memCacheClean is pmdalinux's Cached - Dirty - Writeback, floored at 0.
func memCacheClean(m *kernel.Meminfo) (uint64, bool) {
	return clampedSub(m, kernel.MemCached, kernel.MemDirty, kernel.MemWriteback)
}

// clampedSub returns field from minus every one of subs, floored at 0 as
// pmdalinux floors its signed result, or false when any operand is absent.
func clampedSub(m *kernel.Meminfo, from kernel.MemField, subs ...kernel.MemField) (uint64, bool) {
	v, ok := m.Get(from)
	if !ok {
		return 0, false
	}
	for _, f := range subs {
		s, ok := m.Get(f)
		if !ok {
			return 0, false
		}
		if s >= v {
			v = 0
			continue
		}
		v -= s
	}
	return v, true
}

// hugeBytes is a HugePages_* count times Hugepagesize (kB) in bytes. Unlike
// pmdalinux, which multiplies by its -1 "absent" marker, a missing
// Hugepagesize gives no value.
func hugeBytes(count kernel.MemField) memValue {
	return func(m *kernel.Meminfo) (uint64, bool) {
		n, ok1 := m.Get(count)
		sizeKB, ok2 := m.Get(kernel.MemHugepagesize)
		if !ok1 || !ok2 {
			return 0, false
		}
		// Overflow checks: nonsense input gives no value, not a wrapped one.
		hi1, size := bits.Mul64(sizeKB, 1024)
		hi2, v := bits.Mul64(n, size)
		return v, hi1 == 0 && hi2 == 0
	}
}

// memCollector reads /proc/meminfo. Nothing in it is a counter: no rates.
type memCollector struct {
	file  *kernel.File
	buf   []byte // the file's text, reused
	mem   kernel.Meminfo
	descs []cache.Desc // in memMetrics order
}

// NewMemoryCollector checks the /proc root below p.Proc.
func NewMemoryCollector(p engine.Env) (engine.Collector, error) {
	path, err := procFile(p, "meminfo")
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	c := &memCollector{file: kernel.NewFile(p.Proc, path), buf: make([]byte, 0, 4096)}
	for _, m := range memMetrics {
		c.descs = append(c.descs, engine.Metric(engine.Prefix+m.name, clusterMeminfo, m.item, cache.TypeU64, m.sem, m.units, cache.InDomNone))
	}
	return c, nil
}

func (c *memCollector) Name() string { return "memory" }

func (c *memCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: append([]cache.Desc(nil), c.descs...)}
}

// Sample reads /proc/meminfo once.
func (c *memCollector) Sample(b *cache.Builder, _ time.Time) error {
	if err := readMeminfo(c.file, &c.buf, &c.mem); err != nil {
		return err
	}
	for i, mm := range memMetrics {
		if v, ok := mm.value(&c.mem); ok {
			b.SetU64(c.descs[i].ID, cache.InstNone, v)
		}
	}
	return nil
}

// readMeminfo reads and parses /proc/meminfo into m, reusing *buf.
func readMeminfo(f *kernel.File, buf *[]byte, m *kernel.Meminfo) error {
	var err error
	if *buf, err = f.Read(*buf); err != nil {
		return fmt.Errorf("reading meminfo: %w", err)
	}
	if err := kernel.ParseMeminfo(*buf, m); err != nil {
		return fmt.Errorf("parsing %s: %w", f.Path, err)
	}
	return nil
}
