package collector

import (
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A software RAID array's size and health. pmdalinux takes the size from
// /proc/partitions (its item 17 of cluster 59, our clusterMD) and the
// health from the exit code of "mdadm --test --detail" run on every fetch
// (its cluster 60). We read /sys/block/<md>/size with the disks' other
// attributes, and derive mdadm's code from md/array_state and md/degraded
// every sample: no program is run, and an array losing a disk shows within
// the disk collector's interval.
var (
	diskMDCapacity = engine.Row{Name: "hostcache.disk.md.capacity", Cluster: clusterMD, Item: 17,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomMD}.Desc()
	diskMDStatus = engine.Row{Name: "hostcache.disk.md.status", Cluster: clusterMDStatus, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: indomMD}.Desc()
)

// mdadm --test's exit codes.
const (
	mdStatusClean    = 0 // every member present
	mdStatusDegraded = 1 // running without at least one member
	mdStatusFailed   = 2 // not running: unusable
)

// publishMD sets an array's capacity and status.
func (c *diskCollector) publishMD(b *cache.Builder, inst uint32, dev string, now time.Time) {
	if a := c.attrs(dev, nil, now); a.hasCapacity {
		b.SetU64(diskMDCapacity.ID, inst, a.capacityKB)
	}
	st, ok := c.mdStatus(dev)
	if ok {
		b.SetI64(diskMDStatus.ID, inst, st)
	}
	c.mdSeen = append(c.mdSeen, mdSeen{dev, st, ok})
}

// mdSeen is an array's status as the last sample built published it: it
// is read from sysfs every sample, text unchanged or not.
type mdSeen struct {
	dev string
	st  int64
	ok  bool
}

// mdSame reports whether every array's status is what was published.
func (c *diskCollector) mdSame() bool {
	for _, m := range c.mdSeen {
		if st, ok := c.mdStatus(m.dev); st != m.st || ok != m.ok {
			return false
		}
	}
	return true
}

// mdStatus is mdadm --test's answer from sysfs; false when the array's md
// directory cannot be read.
func (c *diskCollector) mdStatus(dev string) (int64, bool) {
	state, ok := c.sys.line(dev, "md", "array_state")
	if !ok {
		return 0, false
	}
	return mdStatusOf(state, c.mdDegraded(dev)), true
}

// mdDegraded is md/degraded, the members missing; 0 when unreadable
// (RAID 0 and linear arrays have no such file: nothing to miss).
func (c *diskCollector) mdDegraded(dev string) uint64 {
	line, ok := c.sys.line(dev, "md", "degraded")
	if !ok {
		return 0
	}
	n, _ := strconv.ParseUint(strings.TrimSpace(line), 10, 32)
	return n
}

// mdStatusOf maps the kernel's array state (Documentation/admin-guide/md.rst)
// and missing members to mdadm's exit code.
func mdStatusOf(state string, degraded uint64) int64 {
	switch strings.TrimSpace(state) {
	case "clear", "inactive", "suspended", "broken":
		return mdStatusFailed
	}
	if degraded > 0 {
		return mdStatusDegraded
	}
	return mdStatusClean
}
