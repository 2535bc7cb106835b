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
var zramCapacity = engine.Row{Name: "hostcache.zram.capacity", Cluster: clusterZram, Item: 16,
	Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomZram}.Desc()

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
	{engine.Row{Name: "hostcache.zram.io_stat.failed.reads", Cluster: clusterZramSys, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomZram}.Desc(),
		zramAsIs},
	{engine.Row{Name: "hostcache.zram.io_stat.failed.writes", Cluster: clusterZramSys, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomZram}.Desc(),
		zramAsIs},
	{engine.Row{Name: "hostcache.zram.io_stat.invalid", Cluster: clusterZramSys, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomZram}.Desc(), zramAsIs},
	{engine.Row{Name: "hostcache.zram.io_stat.notify_free", Cluster: clusterZramSys, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomZram}.Desc(),
		zramAsIs},
}

// zramMMStat is mm_stat's first eight fields (a ninth, huge_pages_since,
// pmdalinux does not export). pmdalinux declares the three page counts
// counters although same_pages and huge_pages go down as pages are freed.
var zramMMStat = []zramStat{
	{engine.Row{Name: "hostcache.zram.mm_stat.data_size.original", Cluster: clusterZramSys, Item: 10,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramBytes},
	{engine.Row{Name: "hostcache.zram.mm_stat.data_size.compressed", Cluster: clusterZramSys, Item: 11,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramBytes},
	{engine.Row{Name: "hostcache.zram.mm_stat.mem.used_total", Cluster: clusterZramSys, Item: 12,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramBytes},
	{engine.Row{Name: "hostcache.zram.mm_stat.mem.limit", Cluster: clusterZramSys, Item: 13,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramBytes},
	{engine.Row{Name: "hostcache.zram.mm_stat.mem.max_used", Cluster: clusterZramSys, Item: 14,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramBytes},
	{engine.Row{Name: "hostcache.zram.mm_stat.pages.same", Cluster: clusterZramSys, Item: 15,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramPages},
	{engine.Row{Name: "hostcache.zram.mm_stat.pages.compacted", Cluster: clusterZramSys, Item: 16,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramPages},
	{engine.Row{Name: "hostcache.zram.mm_stat.pages.huge", Cluster: clusterZramSys, Item: 17,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(),
		zramPages},
}

// zramBDStat is bd_stat, present when the kernel can write idle or
// incompressible pages back to a backing device: what sits there, and
// what was read from and written to it.
var zramBDStat = []zramStat{
	{engine.Row{Name: "hostcache.zram.bd_stat.count", Cluster: clusterZramSys, Item: 20, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(), zramFourKs},
	{engine.Row{Name: "hostcache.zram.bd_stat.reads", Cluster: clusterZramSys, Item: 21, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(), zramFourKs},
	{engine.Row{Name: "hostcache.zram.bd_stat.writes", Cluster: clusterZramSys, Item: 22, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsKByte, InDom: indomZram}.Desc(), zramFourKs},
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
