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
	diskDMName = engine.Metric("hostcache.hinv.map.dmname", clusterDM, 13, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomDM)
	diskMDName = engine.Metric("hostcache.hinv.map.mdname", clusterMD, 13, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomMD)
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
