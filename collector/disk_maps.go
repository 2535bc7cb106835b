package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The kernel name behind each device-mapper and md instance, pmdalinux's
// item 13 of its dm (54) and md (59) clusters: a dm instance is named by
// its mapped name ("vg0-root") and maps to "dm-0"; an md instance maps to
// its kernel name ("md127") from its persistent name ("root", from
// /dev/md/root) or, without one, from the kernel name itself.
var (
	diskDMName = engine.Row{Name: "hostcache.hinv.map.dmname", Cluster: clusterDM, Item: 13,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomDM}.Desc()
	diskMDName = engine.Row{Name: "hostcache.hinv.map.mdname", Cluster: clusterMD, Item: 13,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomMD}.Desc()
)

// diskMapDescs are the two maps, for the disk collector's Source.
func diskMapDescs() []cache.Desc { return []cache.Desc{diskDMName, diskMDName} }

// publishMapName sets the kernel name of a dm or md instance; other
// trees have no map.
func publishMapName(b *cache.Builder, t diskTree, inst uint32, dev string) {
	switch t {
	case diskDM:
		b.SetString(diskDMName.ID, inst, dev)
	case diskMD:
		b.SetString(diskMDName.ID, inst, dev)
	}
}
