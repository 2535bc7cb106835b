package collector

import (
	"os"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A zram device's I/O counters are its /proc/diskstats line, published by
// the disk collector as the zram tree (disk_fields.go). Its size and the
// compressor's own statistics are sysfs attributes of /sys/block/zramN,
// with pmdalinux's items: zram.capacity is item 16 of its cluster 86 (our
// clusterZram). The io_stat, mm_stat and bd_stat fields are pmdalinux's
// clusters 87, 88 and 89, items from 0 each; they share our
// clusterZramSys, so each file's items start at a multiple of ten (0,
// 10, 20) plus pmdalinux's item.
var zramCapacity = engine.Metric("hostcache.zram.capacity", clusterZram, 16, cache.TypeU64, cache.SemDiscrete, cache.UnitsKByte, indomZram)

// zramStat is one field of a zram statistics file: its metric and how its
// raw value becomes the metric's.
type zramStat struct {
	desc  cache.Desc
	scale zramScale
}

// zramScale converts a raw field to the metric's units.
type zramScale int

const (
	zramAsIs   zramScale = iota // a count of requests
	zramBytes                   // bytes, published in KB
	zramPages                   // pages of the kernel's page size, published in KB
	zramFourKs                  // 4 KiB units (bd_stat's, whatever the page size), in KB
)

// zramIOStat is io_stat: failed reads and writes, requests refused as out
// of range or misaligned, and slots freed when swap lets go of them.
var zramIOStat = []zramStat{
	{engine.Metric("hostcache.zram.io_stat.failed.reads", clusterZramSys, 0, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomZram), zramAsIs},
	{engine.Metric("hostcache.zram.io_stat.failed.writes", clusterZramSys, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomZram), zramAsIs},
	{engine.Metric("hostcache.zram.io_stat.invalid", clusterZramSys, 2, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomZram), zramAsIs},
	{engine.Metric("hostcache.zram.io_stat.notify_free", clusterZramSys, 3, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomZram), zramAsIs},
}

// zramMMStat is mm_stat's first eight fields (a ninth, huge_pages_since,
// pmdalinux does not export). pmdalinux declares the three page counts
// counters although same_pages and huge_pages go down as pages are freed.
var zramMMStat = []zramStat{
	{engine.Metric("hostcache.zram.mm_stat.data_size.original", clusterZramSys, 10, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZram), zramBytes},
	{engine.Metric("hostcache.zram.mm_stat.data_size.compressed", clusterZramSys, 11, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZram), zramBytes},
	{engine.Metric("hostcache.zram.mm_stat.mem.used_total", clusterZramSys, 12, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZram), zramBytes},
	{engine.Metric("hostcache.zram.mm_stat.mem.limit", clusterZramSys, 13, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZram), zramBytes},
	{engine.Metric("hostcache.zram.mm_stat.mem.max_used", clusterZramSys, 14, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZram), zramBytes},
	{engine.Metric("hostcache.zram.mm_stat.pages.same", clusterZramSys, 15, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramPages},
	{engine.Metric("hostcache.zram.mm_stat.pages.compacted", clusterZramSys, 16, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramPages},
	{engine.Metric("hostcache.zram.mm_stat.pages.huge", clusterZramSys, 17, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramPages},
}

// zramBDStat is bd_stat, present when the kernel can write idle or
// incompressible pages back to a backing device: what sits there, and
// what was read from and written to it.
var zramBDStat = []zramStat{
	{engine.Metric("hostcache.zram.bd_stat.count", clusterZramSys, 20, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramFourKs},
	{engine.Metric("hostcache.zram.bd_stat.reads", clusterZramSys, 21, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramFourKs},
	{engine.Metric("hostcache.zram.bd_stat.writes", clusterZramSys, 22, cache.TypeU64, cache.SemCounter, cache.UnitsKByte, indomZram), zramFourKs},
}

// zramSysDescs are the metrics of the zram sysfs attributes, for the disk
// collector's Source.
func zramSysDescs() []cache.Desc {
	out := []cache.Desc{zramCapacity}
	for _, table := range [][]zramStat{zramIOStat, zramMMStat, zramBDStat} {
		for _, s := range table {
			out = append(out, s.desc)
		}
	}
	return out
}

// kb converts a raw field to KB (or leaves a count as it is); pageSize is
// the kernel's, which mm_stat counts pages in.
func (s zramScale) kb(v uint64, pageSize uint64) uint64 {
	switch s {
	case zramBytes:
		return v >> 10
	case zramPages:
		return v * (pageSize >> 10)
	case zramFourKs:
		return v * 4
	}
	return v
}

// zramPageSize is the kernel's page size, which mm_stat's page counts are
// in (pmdalinux assumes 4 KiB; the same figures on such hosts).
func zramPageSize() uint64 { return uint64(os.Getpagesize()) }
