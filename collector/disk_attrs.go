package collector

import (
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A disk's size and I/O scheduler, from /sys/block/<disk>/size (512-byte
// sectors) and queue/scheduler (the choice in brackets), with pmdalinux's
// items of its cluster 0. They change only when a device is resized or an
// administrator picks another scheduler, so they are read when a disk
// appears and again once every diskAttrRefresh (stretched while the source
// is slowed down, see paced), not every sample.
var (
	diskCapacity = engine.Row{Name: "hostcache.disk.dev.capacity", Cluster: clusterDisk, Item: 87,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomDisk}.Desc()
	diskScheduler = engine.Row{Name: "hostcache.disk.dev.scheduler", Cluster: clusterDisk, Item: 59,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomDisk}.Desc()
	// The disk's world-wide id, the SCSI paths to one device sharing it,
	// and "unknown" for a disk without one (a virtio disk), as pmdalinux.
	diskScsiID = engine.Row{Name: "hostcache.hinv.map.scsi_id", Cluster: clusterDisk, Item: 103,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomDisk}.Desc()
)

const diskAttrRefresh = time.Minute

// diskAttrs are one disk's attributes as last read.
type diskAttrs struct {
	capacityKB  uint64
	hasCapacity bool
	scheduler   string
	wwid        string // canonical world-wide id, "" without one (disk_wwid.go)
	read        time.Time
	// absent are the attributes found missing (attrSize, ...), and
	// refreshes counts the reads: a missing one is looked for again
	// every absentRecheck refreshes, not at each.
	absent    uint8
	refreshes uint32
}

// The attributes, as bits of diskAttrs.absent.
const (
	attrSize uint8 = 1 << iota
	attrScheduler
	attrWWID
)

// absentRecheck: a device's sysfs attributes are made with it, so a disk
// that lacks one (a partition's queue/scheduler, a virtio disk's wwid)
// lacks it for good, and looking for it every minute cost a failed path
// walk per disk and attribute; it is looked for every ten minutes.
const absentRecheck = 10

// attrs returns a disk's attributes, read again when older than
// diskAttrRefresh at the current pace (or never read). a is the disk's
// entry when the caller kept it (the disk layout does, sparing a lookup by
// name per disk); otherwise it is found or made by name.
func (c *diskCollector) attrs(dev string, a *diskAttrs, now time.Time) *diskAttrs {
	if a == nil {
		if a = c.attrCache[dev]; a == nil {
			a = &diskAttrs{}
			c.attrCache[dev] = a
		}
	}
	if now.Sub(a.read) >= c.Every(diskAttrRefresh) || now.Before(a.read) {
		*a = c.readAttrs(dev, now, a)
	}
	c.dueBy(a.read.Add(c.Every(diskAttrRefresh)))
	return a
}

// Pace takes the source's slow-down (engine.Paced): the refreshes due are
// counted afresh at the new pace, so the next sample is built in full.
func (c *diskCollector) Pace(factor int) {
	c.Paced.Pace(factor)
	c.due = time.Time{}
}

// dueBy brings the next sample that must be built in full forward to t.
func (c *diskCollector) dueBy(t time.Time) {
	if t.Before(c.due) {
		c.due = t
	}
}

// readAttrs reads a disk's attributes from /sys; prev is what was read
// before (zero for a disk not seen yet).
func (c *diskCollector) readAttrs(dev string, now time.Time, prev *diskAttrs) diskAttrs {
	a := diskAttrs{read: now, refreshes: prev.refreshes + 1}
	if !diskSafeName(dev) {
		return a
	}
	skip := prev.absent
	if a.refreshes%absentRecheck == 0 {
		skip = 0
	}
	look := func(bit uint8, read func() bool) {
		if skip&bit != 0 || !read() {
			a.absent |= bit
		}
	}
	look(attrSize, func() bool {
		size, ok := c.sys.line(dev, "size")
		if !ok {
			return false
		}
		if sectors, err := strconv.ParseUint(strings.TrimSpace(size), 10, 64); err == nil {
			a.capacityKB, a.hasCapacity = sectors/2, true
		}
		return true
	})
	look(attrScheduler, func() bool {
		sched, ok := c.sys.line(dev, "queue", "scheduler")
		a.scheduler = chosenScheduler(sched)
		return ok
	})
	look(attrWWID, func() bool {
		a.wwid = c.wwidOf(dev)
		return a.wwid != ""
	})
	return a
}

// chosenScheduler is the scheduler in force: the bracketed one of
// "none [mq-deadline] kyber bfq", or the only one listed.
func chosenScheduler(line string) string {
	if i := strings.IndexByte(line, '['); i >= 0 {
		if j := strings.IndexByte(line[i:], ']'); j > 0 {
			return line[i+1 : i+j]
		}
	}
	if f := strings.Fields(line); len(f) == 1 {
		return f[0]
	}
	return ""
}

// publishAttrs sets a disk's capacity, scheduler and world-wide id.
func (c *diskCollector) publishAttrs(b *cache.Builder, inst uint32, a *diskAttrs) {
	if a.wwid != "" {
		b.SetString(diskScsiID.ID, inst, a.wwid)
	} else {
		b.SetString(diskScsiID.ID, inst, "unknown")
	}
	if a.hasCapacity {
		b.SetU64(diskCapacity.ID, inst, a.capacityKB)
	}
	if a.scheduler != "" {
		b.SetString(diskScheduler.ID, inst, a.scheduler)
	}
}
