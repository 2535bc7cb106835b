package collector

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// disk.wwid.* sums the disks of disk.dev by world-wide id: on a host with
// multipath storage every path to a LUN is a disk of its own (sdb, sdc),
// and the LUN's traffic is the sum over them. The id is read from
// /sys/block/<disk>/device/wwid (or /sys/block/<disk>/wwid) with the
// disks' other attributes (disk_attrs.go), when a disk appears and once a
// minute; pmdalinux's items of its cluster 92, in our clusterWWID.
var (
	diskWWIDPaths = engine.Row{Name: "hostcache.disk.wwid.scsi_paths", Cluster: clusterWWID, Item: 3,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomWWID}.Desc()
	diskWWIDScheduler = engine.Row{Name: "hostcache.disk.wwid.scheduler", Cluster: clusterWWID, Item: 59,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomWWID}.Desc()
	diskWWIDCapacity = engine.Row{Name: "hostcache.disk.wwid.capacity", Cluster: clusterWWID, Item: 87,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomWWID}.Desc()
)

// wwidOf reads a disk's world-wide id, in the kernel's canonical numeric
// form as pmdalinux writes it: the "t10.", "eui." and "naa." prefixes of
// scsi_vpd_lun_id() become their designator types 1, 2 and 3.
func (c *diskCollector) wwidOf(dev string) string {
	id, ok := c.sys.line(dev, "device", "wwid")
	if !ok {
		if id, ok = c.sys.line(dev, "wwid"); !ok {
			return ""
		}
	}
	id = strings.TrimSpace(id)
	for prefix, kind := range map[string]string{"t10.": "1", "eui.": "2", "naa.": "3"} {
		if rest, ok := strings.CutPrefix(id, prefix); ok {
			return kind + rest
		}
	}
	return id
}

// wwidGroup is one world-wide id's paths in this sample.
type wwidGroup struct {
	sum      *diskSum
	paths    []string
	capacity uint64 // summed over the paths, as pmdalinux defines it
	noCap    bool   // a path without a capacity: no value, as pmdalinux
	sched    string
}

// wwidSums gathers the groups of a sample, reusing them between samples.
type wwidSums struct {
	groups map[string]*wwidGroup
	order  []string // ids in the order first seen this sample
}

// reset starts a sample.
func (w *wwidSums) reset() {
	if w.groups == nil {
		w.groups = map[string]*wwidGroup{}
	}
	for _, id := range w.order {
		g := w.groups[id]
		clear(g.sum.v)
		g.sum.disks, g.sum.fields, g.paths, g.capacity, g.noCap, g.sched = 0, 0, g.paths[:0], 0, false, ""
	}
	w.order = w.order[:0]
}

// add counts a published disk of disk.dev under its id.
func (w *wwidSums) add(s *kernel.Diskstats, a diskAttrs) {
	if a.wwid == "" {
		return
	}
	g, ok := w.groups[a.wwid]
	if !ok {
		g = &wwidGroup{sum: &diskSum{v: make([]uint64, len(diskFields))}}
		w.groups[a.wwid] = g
	}
	if len(g.paths) == 0 {
		w.order = append(w.order, a.wwid)
	}
	g.sum.add(s)
	g.paths = append(g.paths, s.Name)
	if a.hasCapacity && a.capacityKB > 0 {
		g.capacity += a.capacityKB
	} else {
		g.noCap = true
	}
	if a.scheduler != "" {
		g.sched = a.scheduler
	}
}

// publish sets the wwid tree and returns its members. Ids no disk holds
// any more are forgotten.
func (c *diskCollector) publishWWIDs(b *cache.Builder) []cache.Instance {
	w := &c.wwids
	list := make([]cache.Instance, 0, len(w.order))
	descs := c.descs[diskWWID]
	for _, id := range w.order {
		g := w.groups[id]
		inst := c.ids[diskWWID].ID(id)
		list = append(list, cache.Instance{ID: inst, Name: id})
		for i := range diskFields {
			if g.sum.fields >= diskFields[i].since {
				v := g.sum.v[i]
				if descs[i].Type == cache.TypeU32 {
					v &= 0xffffffff // 32-bit terms summed in 32 bits, as pmdalinux sums them
				}
				b.SetU64(descs[i].ID, inst, v)
			}
		}
		b.SetString(diskWWIDPaths.ID, inst, strings.Join(g.paths, " "))
		if g.sched != "" {
			b.SetString(diskWWIDScheduler.ID, inst, g.sched)
		}
		if !g.noCap {
			b.SetU64(diskWWIDCapacity.ID, inst, g.capacity)
		}
	}
	for id, g := range w.groups {
		if len(g.paths) == 0 {
			delete(w.groups, id)
		}
	}
	return list
}
