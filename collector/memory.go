package collector

import (
	"fmt"
	"math/bits"
	"os"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
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
	{engine.Row{Name: "hostcache.mem.physmem", Cluster: clusterMeminfo, Item: 0, Type: cache.TypeU64,
		Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemTotal)},
	{engine.Row{Name: "hostcache.mem.util.used", Cluster: clusterMeminfo, Item: 1, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone, Peaks: true}.Desc(), memUsed},
	{engine.Row{Name: "hostcache.mem.util.free", Cluster: clusterMeminfo, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), field(kernel.MemFree)},
	// pmdalinux's other names for meminfo's figures.
	{engine.Row{Name: "hostcache.hinv.physmem", Cluster: clusterMeminfo, Item: 9, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, Units: cache.MakeUnits(1, 0, 0, cache.SpaceMByte, 0, 0),
		InDom: cache.InDomNone}.Desc(), physMB},
	{engine.Row{Name: "hostcache.mem.freemem", Cluster: clusterMeminfo, Item: 10, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), field(kernel.MemFree)},
	{engine.Row{Name: "hostcache.hinv.pagesize", Cluster: clusterMeminfo, Item: 11, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(), pageSize},
	{engine.Row{Name: "hostcache.hinv.hugepagesize", Cluster: clusterMeminfo, Item: 59, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(), hugePageSize},
	{engine.Row{Name: "hostcache.mem.util.bufmem", Cluster: clusterMeminfo, Item: 4, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemBuffers)},
	{engine.Row{Name: "hostcache.mem.util.cached", Cluster: clusterMeminfo, Item: 5, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemCached)},
	{engine.Row{Name: "hostcache.mem.util.other", Cluster: clusterMeminfo, Item: 12, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), memOther},
	{engine.Row{Name: "hostcache.mem.util.swapCached", Cluster: clusterMeminfo, Item: 13, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemSwapCached)},
	{engine.Row{Name: "hostcache.mem.util.active", Cluster: clusterMeminfo, Item: 14, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemActive)},
	{engine.Row{Name: "hostcache.mem.util.inactive", Cluster: clusterMeminfo, Item: 15, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemInactive)},
	{engine.Row{Name: "hostcache.mem.util.swapTotal", Cluster: clusterMeminfo, Item: 20, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemSwapTotal)},
	{engine.Row{Name: "hostcache.mem.util.swapFree", Cluster: clusterMeminfo, Item: 21, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemSwapFree)},
	{engine.Row{Name: "hostcache.mem.util.dirty", Cluster: clusterMeminfo, Item: 22, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), field(kernel.MemDirty)},
	{engine.Row{Name: "hostcache.mem.util.writeback", Cluster: clusterMeminfo, Item: 23, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemWriteback)},
	{engine.Row{Name: "hostcache.mem.util.mapped", Cluster: clusterMeminfo, Item: 24, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemMapped)},
	{engine.Row{Name: "hostcache.mem.util.slab", Cluster: clusterMeminfo, Item: 25, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), field(kernel.MemSlab)},
	{engine.Row{Name: "hostcache.mem.util.committed_AS", Cluster: clusterMeminfo, Item: 26, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemCommittedAS)},
	{engine.Row{Name: "hostcache.mem.util.pageTables", Cluster: clusterMeminfo, Item: 27, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemPageTables)},
	{engine.Row{Name: "hostcache.mem.util.cache_clean", Cluster: clusterMeminfo, Item: 29, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), memCacheClean},
	{engine.Row{Name: "hostcache.mem.util.anonpages", Cluster: clusterMeminfo, Item: 30, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemAnonPages)},
	{engine.Row{Name: "hostcache.mem.util.commitLimit", Cluster: clusterMeminfo, Item: 31, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemCommitLimit)},
	{engine.Row{Name: "hostcache.mem.util.bounce", Cluster: clusterMeminfo, Item: 32, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemBounce)},
	{engine.Row{Name: "hostcache.mem.util.NFS_Unstable", Cluster: clusterMeminfo, Item: 33, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemNFSUnstable)},
	{engine.Row{Name: "hostcache.mem.util.slabReclaimable", Cluster: clusterMeminfo, Item: 34,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemSReclaimable)},
	{engine.Row{Name: "hostcache.mem.util.slabUnreclaimable", Cluster: clusterMeminfo, Item: 35,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemSUnreclaim)},
	{engine.Row{Name: "hostcache.mem.util.active_anon", Cluster: clusterMeminfo, Item: 36, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemActiveAnon)},
	{engine.Row{Name: "hostcache.mem.util.inactive_anon", Cluster: clusterMeminfo, Item: 37,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemInactiveAnon)},
	{engine.Row{Name: "hostcache.mem.util.active_file", Cluster: clusterMeminfo, Item: 38, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemActiveFile)},
	{engine.Row{Name: "hostcache.mem.util.inactive_file", Cluster: clusterMeminfo, Item: 39,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemInactiveFile)},
	{engine.Row{Name: "hostcache.mem.util.unevictable", Cluster: clusterMeminfo, Item: 40, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemUnevictable)},
	{engine.Row{Name: "hostcache.mem.util.mlocked", Cluster: clusterMeminfo, Item: 41, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemMlocked)},
	{engine.Row{Name: "hostcache.mem.util.shmem", Cluster: clusterMeminfo, Item: 42, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(), field(kernel.MemShmem)},
	{engine.Row{Name: "hostcache.mem.util.kernelStack", Cluster: clusterMeminfo, Item: 43, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemKernelStack)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesTotal", Cluster: clusterMeminfo, Item: 44,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHugePagesTotal)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesFree", Cluster: clusterMeminfo, Item: 45,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHugePagesFree)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesRsvd", Cluster: clusterMeminfo, Item: 46,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHugePagesRsvd)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesSurp", Cluster: clusterMeminfo, Item: 47,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHugePagesSurp)},
	{engine.Row{Name: "hostcache.mem.util.directMap4k", Cluster: clusterMeminfo, Item: 48, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemDirectMap4k)},
	{engine.Row{Name: "hostcache.mem.util.directMap2M", Cluster: clusterMeminfo, Item: 49, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemDirectMap2M)},
	{engine.Row{Name: "hostcache.mem.util.vmallocTotal", Cluster: clusterMeminfo, Item: 50, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemVmallocTotal)},
	{engine.Row{Name: "hostcache.mem.util.vmallocUsed", Cluster: clusterMeminfo, Item: 51, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemVmallocUsed)},
	{engine.Row{Name: "hostcache.mem.util.vmallocChunk", Cluster: clusterMeminfo, Item: 52, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemVmallocChunk)},
	{engine.Row{Name: "hostcache.mem.util.corrupthardware", Cluster: clusterMeminfo, Item: 55,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHardwareCorrupted)},
	{engine.Row{Name: "hostcache.mem.util.anonhugepages", Cluster: clusterMeminfo, Item: 56,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemAnonHugePages)},
	{engine.Row{Name: "hostcache.mem.util.directMap1G", Cluster: clusterMeminfo, Item: 57, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemDirectMap1G)},
	// Kernels before 3.14 lack MemAvailable; pmdalinux then estimates it from
	// /proc/zoneinfo, which we do not read, so there it has no value.
	{engine.Row{Name: "hostcache.mem.util.available", Cluster: clusterMeminfo, Item: 58, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone,
		Peaks: true}.Desc(), field(kernel.MemAvailable)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesTotalBytes", Cluster: clusterMeminfo, Item: 60,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
		InDom: cache.InDomNone}.Desc(), hugeBytes(kernel.MemHugePagesTotal)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesFreeBytes", Cluster: clusterMeminfo, Item: 61,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
		InDom: cache.InDomNone}.Desc(), hugeBytes(kernel.MemHugePagesFree)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesRsvdBytes", Cluster: clusterMeminfo, Item: 62,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
		InDom: cache.InDomNone}.Desc(), hugeBytes(kernel.MemHugePagesRsvd)},
	{engine.Row{Name: "hostcache.mem.util.hugepagesSurpBytes", Cluster: clusterMeminfo, Item: 63,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
		InDom: cache.InDomNone}.Desc(), hugeBytes(kernel.MemHugePagesSurp)},
	{engine.Row{Name: "hostcache.mem.util.shared", Cluster: clusterMeminfo, Item: 3, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemShared)},
	{engine.Row{Name: "hostcache.mem.util.highTotal", Cluster: clusterMeminfo, Item: 16, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemHighTotal)},
	{engine.Row{Name: "hostcache.mem.util.highFree", Cluster: clusterMeminfo, Item: 17, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemHighFree)},
	{engine.Row{Name: "hostcache.mem.util.lowTotal", Cluster: clusterMeminfo, Item: 18, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemLowTotal)},
	{engine.Row{Name: "hostcache.mem.util.lowFree", Cluster: clusterMeminfo, Item: 19, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemLowFree)},
	{engine.Row{Name: "hostcache.mem.util.reverseMaps", Cluster: clusterMeminfo, Item: 28, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemReverseMaps)},
	{engine.Row{Name: "hostcache.mem.util.mmap_copy", Cluster: clusterMeminfo, Item: 53, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: cache.InDomNone}.Desc(),
		field(kernel.MemMmapCopy)},
	{engine.Row{Name: "hostcache.mem.util.quicklists", Cluster: clusterMeminfo, Item: 54, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: cache.InDomNone}.Desc(), field(kernel.MemQuicklists)},
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
	path, err := hostkit.ProcFile(env, "meminfo")
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
