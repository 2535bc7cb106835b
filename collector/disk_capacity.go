package collector

import (
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The size of a partition and of a device-mapper device, pmdalinux's
// item 16 of its partitions cluster and 17 of its dm cluster. pmdalinux
// reads /proc/partitions; we read /sys/class/block/<dev>/size (512-byte
// sectors, the same figure), where partitions live beside whole devices,
// at the pace of the disks' attributes (disk_attrs.go).
var (
	diskPartCapacity = engine.Row{Name: "hostcache.disk.partitions.capacity", Cluster: clusterPart, Item: 16,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomPartitions}.Desc()
	diskDMCapacity = engine.Row{Name: "hostcache.disk.dm.capacity", Cluster: clusterDM, Item: 17,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomDM}.Desc()
)

// publishSize sets the capacity of a partition or dm device, dev its
// kernel name.
func (c *diskCollector) publishSize(b *cache.Builder, t diskTree, inst uint32, dev string, now time.Time) {
	id := diskPartCapacity.ID
	if t == diskDM {
		id = diskDMCapacity.ID
	}
	if kb, ok := c.size(dev, now); ok {
		b.SetU64(id, inst, kb)
	}
}

// size returns a device's size in KB, read again when older than
// diskAttrRefresh at the current pace. It shares the disks' attribute
// cache, by kernel name, so a device gone or replaced is read afresh.
func (c *diskCollector) size(dev string, now time.Time) (uint64, bool) {
	a := c.attrCache[dev]
	if a == nil {
		a = &diskAttrs{}
		c.attrCache[dev] = a
	}
	if now.Sub(a.read) >= c.Every(diskAttrRefresh) || now.Before(a.read) {
		*a = diskAttrs{read: now, refreshes: a.refreshes + 1}
		a.capacityKB, a.hasCapacity = c.sys.classSize(dev)
	}
	c.dueBy(a.read.Add(c.Every(diskAttrRefresh)))
	return a.capacityKB, a.hasCapacity
}

// classSize reads <sys>/class/block/<dev>/size, in KB.
func (s diskSys) classSize(dev string) (uint64, bool) {
	line, ok := s.classLine(dev, "size")
	if !ok {
		return 0, false
	}
	sectors, err := strconv.ParseUint(strings.TrimSpace(line), 10, 64)
	return sectors / 2, err == nil
}
