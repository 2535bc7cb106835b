package collector

import (
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Field counts of a /proc/diskstats line as procfs reports them in
// IoStatsCount (major, minor and name included): the base format has 14,
// kernel 4.18 added four discard fields (18) and 5.5 two flush fields (20).
const (
	diskFieldsBase    = 14
	diskFieldsDiscard = 18
	diskFieldsFlush   = 20
)

// diskTree names the metric trees fed from /proc/diskstats.
type diskTree int

const (
	diskDev  diskTree = iota // disk.dev.*: whole disks, per instance
	diskAll                  // disk.all.*: the sum over disk.dev
	diskPart                 // disk.partitions.*
	diskDM                   // disk.dm.*
	diskMD                   // disk.md.*: software RAID devices
	diskWWID                 // disk.wwid.*: whole disks summed by world-wide id (disk_wwid.go)
	diskZram                 // zram.*: compressed RAM devices (zram.go)
	diskNTrees
)

// diskTreePrefixes are the trees' names: every row's names must start with
// them (TestDiskNamesWrittenOut).
var diskTreePrefixes = [diskNTrees]string{"hostcache.disk.dev.", "hostcache.disk.all.", "hostcache.disk.partitions.",
	"hostcache.disk.dm.", "hostcache.disk.md.", "hostcache.disk.wwid.", "hostcache.zram."}

// diskItem is where one field sits in one tree: its item and its type.
// The types are pmdalinux's, inconsistencies included: the kernel's 32-bit
// millisecond fields stay 32-bit per device but are summed into 64-bit
// disk.all counters, except discard_rawactive and flush_rawactive, which
// pmdalinux sums into 32 bits; and disk.dm.*_bytes are 32-bit (PCP 6.0.3).
type diskItem struct {
	name string // the full metric name
	item uint32
	typ  cache.Type
}

func diskU64(name string, item uint32) diskItem { return diskItem{name, item, cache.TypeU64} }
func diskU32(name string, item uint32) diskItem { return diskItem{name, item, cache.TypeU32} }

// diskField is one quantity derived from a diskstats line.
type diskField struct {
	name  string
	sem   cache.Sem
	units cache.Units
	// since is the field count a line needs for this quantity to exist:
	// lines from older kernels publish no value for it, never 0.
	since int
	value func(s *kernel.Diskstats) uint64
	// in gives the item and type in each tree, pmdalinux's own item numbers:
	// its cluster 0 items for disk.dev and disk.all, and its partitions (10),
	// dm (54) and md (59: the same items and types as dm) cluster items,
	// its wwid cluster (92: disk.dev's items and types, but a 64-bit
	// inflight) and its zram cluster (86: disk.partitions' items and types).
	in [diskNTrees]diskItem
}

// Sectors are 512 bytes whatever the device's block size, so KB = sectors/2
// (rounded down per value, as pmdalinux does: total_bytes halves the sum).
var diskFields = []diskField{
	{"read", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadIOs },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.read", 4), diskU64("hostcache.disk.all.read", 24),
			diskU64("hostcache.disk.partitions.read", 0), diskU64("hostcache.disk.dm.read", 0),
			diskU64("hostcache.disk.md.read", 0), diskU64("hostcache.disk.wwid.read", 4),
			diskU64("hostcache.zram.read", 0)}},
	{"write", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WriteIOs },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.write", 5), diskU64("hostcache.disk.all.write", 25),
			diskU64("hostcache.disk.partitions.write", 1), diskU64("hostcache.disk.dm.write", 1),
			diskU64("hostcache.disk.md.write", 1), diskU64("hostcache.disk.wwid.write", 5),
			diskU64("hostcache.zram.write", 1)}},
	{"total", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadIOs + s.WriteIOs },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.total", 28), diskU64("hostcache.disk.all.total", 29),
			diskU64("hostcache.disk.partitions.total", 2), diskU64("hostcache.disk.dm.total", 2),
			diskU64("hostcache.disk.md.total", 2), diskU64("hostcache.disk.wwid.total", 28),
			diskU64("hostcache.zram.total", 2)}},
	{"blkread", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadSectors },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.blkread", 6),
			diskU64("hostcache.disk.all.blkread", 26),
			diskU64("hostcache.disk.partitions.blkread", 3), diskU64("hostcache.disk.dm.blkread", 3),
			diskU64("hostcache.disk.md.blkread", 3), diskU64("hostcache.disk.wwid.blkread", 6),
			diskU64("hostcache.zram.blkread", 3)}},
	{"blkwrite", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WriteSectors },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.blkwrite", 7),
			diskU64("hostcache.disk.all.blkwrite", 27),
			diskU64("hostcache.disk.partitions.blkwrite", 4), diskU64("hostcache.disk.dm.blkwrite", 4),
			diskU64("hostcache.disk.md.blkwrite", 4), diskU64("hostcache.disk.wwid.blkwrite", 7),
			diskU64("hostcache.zram.blkwrite", 4)}},
	{"blktotal", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadSectors + s.WriteSectors },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.blktotal", 36),
			diskU64("hostcache.disk.all.blktotal", 37),
			diskU64("hostcache.disk.partitions.blktotal", 5), diskU64("hostcache.disk.dm.blktotal", 5),
			diskU64("hostcache.disk.md.blktotal", 5), diskU64("hostcache.disk.wwid.blktotal", 36),
			diskU64("hostcache.zram.blktotal", 5)}},
	{"read_bytes", cache.SemCounter, cache.UnitsKByte, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadSectors / 2 },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.read_bytes", 38),
			diskU64("hostcache.disk.all.read_bytes", 41),
			diskU64("hostcache.disk.partitions.read_bytes", 6), diskU32("hostcache.disk.dm.read_bytes", 6),
			diskU32("hostcache.disk.md.read_bytes", 6), diskU64("hostcache.disk.wwid.read_bytes", 38),
			diskU64("hostcache.zram.read_bytes", 6)}},
	{"write_bytes", cache.SemCounter, cache.UnitsKByte, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WriteSectors / 2 },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.write_bytes", 39),
			diskU64("hostcache.disk.all.write_bytes", 42),
			diskU64("hostcache.disk.partitions.write_bytes", 7),
			diskU32("hostcache.disk.dm.write_bytes", 7),
			diskU32("hostcache.disk.md.write_bytes", 7), diskU64("hostcache.disk.wwid.write_bytes", 39),
			diskU64("hostcache.zram.write_bytes", 7)}},
	{"total_bytes", cache.SemCounter, cache.UnitsKByte, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return (s.ReadSectors + s.WriteSectors) / 2 },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.total_bytes", 40),
			diskU64("hostcache.disk.all.total_bytes", 43),
			diskU64("hostcache.disk.partitions.total_bytes", 8),
			diskU32("hostcache.disk.dm.total_bytes", 8),
			diskU32("hostcache.disk.md.total_bytes", 8), diskU64("hostcache.disk.wwid.total_bytes", 40),
			diskU64("hostcache.zram.total_bytes", 8)}},
	{"read_merge", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadMerges },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.read_merge", 49),
			diskU64("hostcache.disk.all.read_merge", 51),
			diskU64("hostcache.disk.partitions.read_merge", 9), diskU64("hostcache.disk.dm.read_merge", 9),
			diskU64("hostcache.disk.md.read_merge", 9), diskU64("hostcache.disk.wwid.read_merge", 49),
			diskU64("hostcache.zram.read_merge", 9)}},
	{"write_merge", cache.SemCounter, cache.UnitsCount, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WriteMerges },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.write_merge", 50),
			diskU64("hostcache.disk.all.write_merge", 52),
			diskU64("hostcache.disk.partitions.write_merge", 10),
			diskU64("hostcache.disk.dm.write_merge", 10),
			diskU64("hostcache.disk.md.write_merge", 10), diskU64("hostcache.disk.wwid.write_merge", 50),
			diskU64("hostcache.zram.write_merge", 10)}},
	{"avactive", cache.SemCounter, cache.UnitsMSec, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.IOTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.avactive", 46),
			diskU64("hostcache.disk.all.avactive", 44),
			diskU32("hostcache.disk.partitions.avactive", 11), diskU32("hostcache.disk.dm.avactive", 11),
			diskU32("hostcache.disk.md.avactive", 11), diskU32("hostcache.disk.wwid.avactive", 46),
			diskU32("hostcache.zram.avactive", 11)}},
	{"aveq", cache.SemCounter, cache.UnitsMSec, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WeightedIOTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.aveq", 47), diskU64("hostcache.disk.all.aveq", 45),
			diskU32("hostcache.disk.partitions.aveq", 12), diskU32("hostcache.disk.dm.aveq", 12),
			diskU32("hostcache.disk.md.aveq", 12), diskU32("hostcache.disk.wwid.aveq", 47),
			diskU32("hostcache.zram.aveq", 12)}},
	{"read_rawactive", cache.SemCounter, cache.UnitsMSec, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.read_rawactive", 72),
			diskU64("hostcache.disk.all.read_rawactive", 74),
			diskU32("hostcache.disk.partitions.read_rawactive", 13),
			diskU32("hostcache.disk.dm.read_rawactive", 14),
			diskU32("hostcache.disk.md.read_rawactive", 14),
			diskU32("hostcache.disk.wwid.read_rawactive", 72),
			diskU32("hostcache.zram.read_rawactive", 13)}},
	{"write_rawactive", cache.SemCounter, cache.UnitsMSec, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.WriteTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.write_rawactive", 73),
			diskU64("hostcache.disk.all.write_rawactive", 75),
			diskU32("hostcache.disk.partitions.write_rawactive", 14),
			diskU32("hostcache.disk.dm.write_rawactive", 15),
			diskU32("hostcache.disk.md.write_rawactive", 15),
			diskU32("hostcache.disk.wwid.write_rawactive", 73),
			diskU32("hostcache.zram.write_rawactive", 14)}},
	{"total_rawactive", cache.SemCounter, cache.UnitsMSec, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.ReadTicks + s.WriteTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.total_rawactive", 79),
			diskU64("hostcache.disk.all.total_rawactive", 80),
			diskU32("hostcache.disk.partitions.total_rawactive", 15),
			diskU32("hostcache.disk.dm.total_rawactive", 16),
			diskU32("hostcache.disk.md.total_rawactive", 16),
			diskU32("hostcache.disk.wwid.total_rawactive", 79),
			diskU32("hostcache.zram.total_rawactive", 15)}},
	{"discard", cache.SemCounter, cache.UnitsCount, diskFieldsDiscard,
		func(s *kernel.Diskstats) uint64 { return s.DiscardIOs },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.discard", 88),
			diskU64("hostcache.disk.all.discard", 96),
			diskU64("hostcache.disk.partitions.discard", 17), diskU64("hostcache.disk.dm.discard", 18),
			diskU64("hostcache.disk.md.discard", 18), diskU64("hostcache.disk.wwid.discard", 88),
			diskU64("hostcache.zram.discard", 17)}},
	{"blkdiscard", cache.SemCounter, cache.UnitsCount, diskFieldsDiscard,
		func(s *kernel.Diskstats) uint64 { return s.DiscardSectors },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.blkdiscard", 89),
			diskU64("hostcache.disk.all.blkdiscard", 97),
			diskU64("hostcache.disk.partitions.blkdiscard", 18),
			diskU64("hostcache.disk.dm.blkdiscard", 19),
			diskU64("hostcache.disk.md.blkdiscard", 19), diskU64("hostcache.disk.wwid.blkdiscard", 89),
			diskU64("hostcache.zram.blkdiscard", 18)}},
	{"discard_bytes", cache.SemCounter, cache.UnitsKByte, diskFieldsDiscard,
		func(s *kernel.Diskstats) uint64 { return s.DiscardSectors / 2 },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.discard_bytes", 90),
			diskU64("hostcache.disk.all.discard_bytes", 98),
			diskU64("hostcache.disk.partitions.discard_bytes", 19),
			diskU64("hostcache.disk.dm.discard_bytes", 20), diskU64("hostcache.disk.md.discard_bytes", 20),
			diskU64("hostcache.disk.wwid.discard_bytes", 90), diskU64("hostcache.zram.discard_bytes", 19)}},
	{"discard_merge", cache.SemCounter, cache.UnitsCount, diskFieldsDiscard,
		func(s *kernel.Diskstats) uint64 { return s.DiscardMerges },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.discard_merge", 91),
			diskU64("hostcache.disk.all.discard_merge", 99),
			diskU64("hostcache.disk.partitions.discard_merge", 20),
			diskU64("hostcache.disk.dm.discard_merge", 21), diskU64("hostcache.disk.md.discard_merge", 21),
			diskU64("hostcache.disk.wwid.discard_merge", 91), diskU64("hostcache.zram.discard_merge", 20)}},
	{"discard_rawactive", cache.SemCounter, cache.UnitsMSec, diskFieldsDiscard,
		func(s *kernel.Diskstats) uint64 { return s.DiscardTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.discard_rawactive", 92),
			diskU32("hostcache.disk.all.discard_rawactive", 100),
			diskU32("hostcache.disk.partitions.discard_rawactive", 21),
			diskU32("hostcache.disk.dm.discard_rawactive", 22),
			diskU32("hostcache.disk.md.discard_rawactive", 22),
			diskU32("hostcache.disk.wwid.discard_rawactive", 92),
			diskU32("hostcache.zram.discard_rawactive", 21)}},
	{"flush", cache.SemCounter, cache.UnitsCount, diskFieldsFlush,
		func(s *kernel.Diskstats) uint64 { return s.FlushIOs },
		[diskNTrees]diskItem{diskU64("hostcache.disk.dev.flush", 93), diskU64("hostcache.disk.all.flush", 101),
			diskU64("hostcache.disk.partitions.flush", 22), diskU64("hostcache.disk.dm.flush", 23),
			diskU64("hostcache.disk.md.flush", 23), diskU64("hostcache.disk.wwid.flush", 93),
			diskU64("hostcache.zram.flush", 22)}},
	{"flush_rawactive", cache.SemCounter, cache.UnitsMSec, diskFieldsFlush,
		func(s *kernel.Diskstats) uint64 { return s.FlushTicks },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.flush_rawactive", 94),
			diskU32("hostcache.disk.all.flush_rawactive", 102),
			diskU32("hostcache.disk.partitions.flush_rawactive", 23),
			diskU32("hostcache.disk.dm.flush_rawactive", 24),
			diskU32("hostcache.disk.md.flush_rawactive", 24),
			diskU32("hostcache.disk.wwid.flush_rawactive", 94),
			diskU32("hostcache.zram.flush_rawactive", 23)}},
	{"inflight", cache.SemInstant, cache.UnitsNone, diskFieldsBase,
		func(s *kernel.Diskstats) uint64 { return s.InProgress },
		[diskNTrees]diskItem{diskU32("hostcache.disk.dev.inflight", 95),
			diskU64("hostcache.disk.all.inflight", 104),
			diskU32("hostcache.disk.partitions.inflight", 24), diskU32("hostcache.disk.dm.inflight", 25),
			diskU32("hostcache.disk.md.inflight", 25), diskU64("hostcache.disk.wwid.inflight", 95),
			diskU32("hostcache.zram.inflight", 24)}},
}

// diskField indexes used by the iostat figures; TestDiskFieldIndexes keeps
// them in step with diskFields.
const (
	dfRead = iota
	dfWrite
	dfTotal
	_ // blkread
	_ // blkwrite
	_ // blktotal
	dfReadBytes
	dfWriteBytes
	_ // total_bytes
	_ // read_merge
	_ // write_merge
	dfAvactive
	_ // aveq
	dfReadRaw
	dfWriteRaw
	dfTotalRaw
	dfDiscard
	_ // blkdiscard
	dfDiscardBytes
	_ // discard_merge
	dfDiscardRaw
	dfFlush
	dfFlushRaw
)

// diskTreeDescs builds the descriptors of one tree, in diskFields order.
func diskTreeDescs(t diskTree) []cache.Desc {
	cluster, indom := uint32(clusterDisk), indomDisk
	switch t {
	case diskAll:
		indom = cache.InDomNone
	case diskPart:
		cluster, indom = clusterPart, indomPartitions
	case diskDM:
		cluster, indom = clusterDM, indomDM
	case diskMD:
		cluster, indom = clusterMD, indomMD
	case diskWWID:
		cluster, indom = clusterWWID, indomWWID
	case diskZram:
		cluster, indom = clusterZram, indomZram
	}
	out := make([]cache.Desc, len(diskFields))
	for i, f := range diskFields {
		at := f.in[t]
		out[i] = engine.Row{Name: at.name, Cluster: cluster, Item: at.item, Type: at.typ, Sem: f.sem,
			Units: f.units, InDom: indom}.Desc()
	}
	return out
}

// diskFieldValue returns field f of a line, false when the line is too old to
// carry it, clipped to the width of its type in tree t.
func diskFieldValue(f *diskField, t diskTree, s *kernel.Diskstats) (uint64, bool) {
	if s.Fields < f.since {
		return 0, false
	}
	v := f.value(s)
	if f.in[t].typ == cache.TypeU32 {
		v &= 0xffffffff
	}
	return v, true
}
