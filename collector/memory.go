package collector

import (
	"fmt"
	"math/bits"
	"os"
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
// PMIDs differ only in domain and cluster. The gap is pmdalinux's swap.*
// (6-8), the swap collector's. The lines only some kernels print give
// values where they are printed: mem.util.shared (MemShared: 2.4
// kernels), highTotal, highFree, lowTotal, lowFree (32-bit HIGHMEM
// kernels), reverseMaps, mmap_copy (kernels without an MMU), quicklists.
var memMetrics = []struct {
	desc  cache.Desc
	value memValue
}{
	{engine.Metric("hostcache.mem.physmem", clusterMeminfo, 0, cache.TypeU64, cache.SemDiscrete, cache.UnitsKByte, cache.InDomNone), field(kernel.MemTotal)},
	{engine.WithPeaks(engine.Metric("hostcache.mem.util.used", clusterMeminfo, 1, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone)), memUsed},
	{engine.Metric("hostcache.mem.util.free", clusterMeminfo, 2, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemFree)},
	// pmdalinux's other names for meminfo's figures.
	{engine.Metric("hostcache.hinv.physmem", clusterMeminfo, 9, cache.TypeU32, cache.SemDiscrete, cache.MakeUnits(1, 0, 0, cache.SpaceMByte, 0, 0), cache.InDomNone), physMB},
	{engine.Metric("hostcache.mem.freemem", clusterMeminfo, 10, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemFree)},
	{engine.Metric("hostcache.hinv.pagesize", clusterMeminfo, 11, cache.TypeU32, cache.SemDiscrete, cache.UnitsByte, cache.InDomNone), pageSize},
	{engine.Metric("hostcache.hinv.hugepagesize", clusterMeminfo, 59, cache.TypeU32, cache.SemDiscrete, cache.UnitsByte, cache.InDomNone), hugePageSize},
	{engine.Metric("hostcache.mem.util.bufmem", clusterMeminfo, 4, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemBuffers)},
	{engine.Metric("hostcache.mem.util.cached", clusterMeminfo, 5, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemCached)},
	{engine.Metric("hostcache.mem.util.other", clusterMeminfo, 12, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), memOther},
	{engine.Metric("hostcache.mem.util.swapCached", clusterMeminfo, 13, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSwapCached)},
	{engine.Metric("hostcache.mem.util.active", clusterMeminfo, 14, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemActive)},
	{engine.Metric("hostcache.mem.util.inactive", clusterMeminfo, 15, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemInactive)},
	{engine.Metric("hostcache.mem.util.swapTotal", clusterMeminfo, 20, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSwapTotal)},
	{engine.Metric("hostcache.mem.util.swapFree", clusterMeminfo, 21, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSwapFree)},
	{engine.Metric("hostcache.mem.util.dirty", clusterMeminfo, 22, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemDirty)},
	{engine.Metric("hostcache.mem.util.writeback", clusterMeminfo, 23, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemWriteback)},
	{engine.Metric("hostcache.mem.util.mapped", clusterMeminfo, 24, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemMapped)},
	{engine.Metric("hostcache.mem.util.slab", clusterMeminfo, 25, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSlab)},
	{engine.Metric("hostcache.mem.util.committed_AS", clusterMeminfo, 26, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemCommittedAS)},
	{engine.Metric("hostcache.mem.util.pageTables", clusterMeminfo, 27, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemPageTables)},
	{engine.Metric("hostcache.mem.util.cache_clean", clusterMeminfo, 29, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), memCacheClean},
	{engine.Metric("hostcache.mem.util.anonpages", clusterMeminfo, 30, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemAnonPages)},
	{engine.Metric("hostcache.mem.util.commitLimit", clusterMeminfo, 31, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemCommitLimit)},
	{engine.Metric("hostcache.mem.util.bounce", clusterMeminfo, 32, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemBounce)},
	{engine.Metric("hostcache.mem.util.NFS_Unstable", clusterMeminfo, 33, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemNFSUnstable)},
	{engine.Metric("hostcache.mem.util.slabReclaimable", clusterMeminfo, 34, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSReclaimable)},
	{engine.Metric("hostcache.mem.util.slabUnreclaimable", clusterMeminfo, 35, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemSUnreclaim)},
	{engine.Metric("hostcache.mem.util.active_anon", clusterMeminfo, 36, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemActiveAnon)},
	{engine.Metric("hostcache.mem.util.inactive_anon", clusterMeminfo, 37, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemInactiveAnon)},
	{engine.Metric("hostcache.mem.util.active_file", clusterMeminfo, 38, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemActiveFile)},
	{engine.Metric("hostcache.mem.util.inactive_file", clusterMeminfo, 39, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemInactiveFile)},
	{engine.Metric("hostcache.mem.util.unevictable", clusterMeminfo, 40, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemUnevictable)},
	{engine.Metric("hostcache.mem.util.mlocked", clusterMeminfo, 41, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemMlocked)},
	{engine.Metric("hostcache.mem.util.shmem", clusterMeminfo, 42, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemShmem)},
	{engine.Metric("hostcache.mem.util.kernelStack", clusterMeminfo, 43, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemKernelStack)},
	{engine.Metric("hostcache.mem.util.hugepagesTotal", clusterMeminfo, 44, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), field(kernel.MemHugePagesTotal)},
	{engine.Metric("hostcache.mem.util.hugepagesFree", clusterMeminfo, 45, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), field(kernel.MemHugePagesFree)},
	{engine.Metric("hostcache.mem.util.hugepagesRsvd", clusterMeminfo, 46, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), field(kernel.MemHugePagesRsvd)},
	{engine.Metric("hostcache.mem.util.hugepagesSurp", clusterMeminfo, 47, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), field(kernel.MemHugePagesSurp)},
	{engine.Metric("hostcache.mem.util.directMap4k", clusterMeminfo, 48, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemDirectMap4k)},
	{engine.Metric("hostcache.mem.util.directMap2M", clusterMeminfo, 49, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemDirectMap2M)},
	{engine.Metric("hostcache.mem.util.vmallocTotal", clusterMeminfo, 50, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemVmallocTotal)},
	{engine.Metric("hostcache.mem.util.vmallocUsed", clusterMeminfo, 51, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemVmallocUsed)},
	{engine.Metric("hostcache.mem.util.vmallocChunk", clusterMeminfo, 52, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemVmallocChunk)},
	{engine.Metric("hostcache.mem.util.corrupthardware", clusterMeminfo, 55, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemHardwareCorrupted)},
	{engine.Metric("hostcache.mem.util.anonhugepages", clusterMeminfo, 56, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemAnonHugePages)},
	{engine.Metric("hostcache.mem.util.directMap1G", clusterMeminfo, 57, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemDirectMap1G)},
	// Kernels before 3.14 lack MemAvailable; pmdalinux then estimates it from
	// /proc/zoneinfo, which we do not read, so there it has no value.
	{engine.WithPeaks(engine.Metric("hostcache.mem.util.available", clusterMeminfo, 58, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone)), field(kernel.MemAvailable)},
	{engine.Metric("hostcache.mem.util.hugepagesTotalBytes", clusterMeminfo, 60, cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone), hugeBytes(kernel.MemHugePagesTotal)},
	{engine.Metric("hostcache.mem.util.hugepagesFreeBytes", clusterMeminfo, 61, cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone), hugeBytes(kernel.MemHugePagesFree)},
	{engine.Metric("hostcache.mem.util.hugepagesRsvdBytes", clusterMeminfo, 62, cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone), hugeBytes(kernel.MemHugePagesRsvd)},
	{engine.Metric("hostcache.mem.util.hugepagesSurpBytes", clusterMeminfo, 63, cache.TypeU64, cache.SemInstant, cache.UnitsByte, cache.InDomNone), hugeBytes(kernel.MemHugePagesSurp)},
	{engine.Metric("hostcache.mem.util.shared", clusterMeminfo, 3, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemShared)},
	{engine.Metric("hostcache.mem.util.highTotal", clusterMeminfo, 16, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemHighTotal)},
	{engine.Metric("hostcache.mem.util.highFree", clusterMeminfo, 17, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemHighFree)},
	{engine.Metric("hostcache.mem.util.lowTotal", clusterMeminfo, 18, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemLowTotal)},
	{engine.Metric("hostcache.mem.util.lowFree", clusterMeminfo, 19, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemLowFree)},
	{engine.Metric("hostcache.mem.util.reverseMaps", clusterMeminfo, 28, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemReverseMaps)},
	{engine.Metric("hostcache.mem.util.mmap_copy", clusterMeminfo, 53, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemMmapCopy)},
	{engine.Metric("hostcache.mem.util.quicklists", clusterMeminfo, 54, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, cache.InDomNone), field(kernel.MemQuicklists)},
}

// field publishes a meminfo line unchanged (kB, or a count for HugePages_*).
func field(f kernel.MemField) memValue {
	return func(m *kernel.Meminfo) (uint64, bool) { return m.Get(f) }
}

// physMB is MemTotal in whole megabytes, as hinv.physmem gives it.
func physMB(m *kernel.Meminfo) (uint64, bool) {
	kb, ok := m.Get(kernel.MemTotal)
	return kb / 1024, ok
}

// pageSize is the kernel's page size: not in meminfo, but fixed for the
// agent's life, so it is given with meminfo's figures.
func pageSize(*kernel.Meminfo) (uint64, bool) { return uint64(os.Getpagesize()), true }

// hugePageSize is Hugepagesize (kB) in bytes.
func hugePageSize(m *kernel.Meminfo) (uint64, bool) {
	kb, ok := m.Get(kernel.MemHugepagesize)
	return kb * 1024, ok
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

// NewMemoryCollector checks the /proc root below env.Proc.
func NewMemoryCollector(env engine.Env) (engine.Collector, error) {
	path, err := procFile(env, "meminfo")
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	c := &memCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles), buf: make([]byte, 0, 4096)}
	for _, m := range memMetrics {
		c.descs = append(c.descs, m.desc)
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
