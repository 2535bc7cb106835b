package collector

import (
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// tmpfs.* metrics, with pmdalinux's items in its tmpfs cluster (34): the
// memory-backed filesystems filesys.* leaves out, /dev/shm and /run among
// them. The filesys collector reads them in the same pass as the other
// mounts, with the same statfs deadline.
var (
	tmpfsCapacity = engine.Row{Name: "hostcache.tmpfs.capacity", Cluster: clusterTmpfs, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomTmpfs}.Desc()
	tmpfsUsed = engine.Row{Name: "hostcache.tmpfs.used", Cluster: clusterTmpfs, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomTmpfs}.Desc()
	tmpfsFree = engine.Row{Name: "hostcache.tmpfs.free", Cluster: clusterTmpfs, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomTmpfs}.Desc()
	tmpfsMaxFiles = engine.Row{Name: "hostcache.tmpfs.maxfiles", Cluster: clusterTmpfs, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomTmpfs}.Desc()
	tmpfsUsedFiles = engine.Row{Name: "hostcache.tmpfs.usedfiles", Cluster: clusterTmpfs, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomTmpfs}.Desc()
	tmpfsFreeFiles = engine.Row{Name: "hostcache.tmpfs.freefiles", Cluster: clusterTmpfs, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomTmpfs}.Desc()
	tmpfsFull = engine.Row{Name: "hostcache.tmpfs.full", Cluster: clusterTmpfs, Item: 7,
		Type: cache.TypeDouble, Sem: cache.SemInstant, InDom: indomTmpfs, Peaks: true}.Desc()
)

// tmpfsMetrics are the tmpfs.* metrics, for the filesys source.
var tmpfsMetrics = []cache.Desc{tmpfsCapacity, tmpfsUsed, tmpfsFree, tmpfsMaxFiles, tmpfsUsedFiles, tmpfsFreeFiles,
	tmpfsFull}

// selectTmpfs applies pmdalinux's rule for tmpfs instances, in mount table
// order: every mount of type tmpfs, named by its mount point as the kernel
// prints it (octal escapes kept), listed once however often it is mounted
// over. pmdalinux passes the name through realpath(3), which leaves it as
// it is: the kernel prints a mount point's path with its links resolved.
func selectTmpfs(infos []*procfs.MountInfo) []mount {
	var out []mount
	seen := map[string]bool{}
	for _, mi := range infos {
		if mi.FSType != "tmpfs" || seen[mi.MountPoint] {
			continue
		}
		seen[mi.MountPoint] = true
		out = append(out, mount{device: mi.MountPoint, dir: mi.MountPoint, path: unescapeMount(mi.MountPoint),
			fstype: mi.FSType})
	}
	return out
}

// publishTmpfs publishes the tmpfs domain and returns each mount's id.
func (c *filesysCollector) publishTmpfs(b *cache.Builder, mounts []mount) []uint32 {
	list := make([]cache.Instance, len(mounts))
	ids := make([]uint32, len(mounts))
	for i, m := range mounts {
		ids[i] = c.tmpfsIDs.ID(m.device)
		list[i] = cache.Instance{ID: ids[i], Name: m.device}
	}
	if c.tmpfsInsts == nil || !hostkit.SameHostInstances(c.tmpfsInsts.All(), list) {
		c.tmpfsInsts = cache.NewInstances(list)
	}
	b.SetInDom(indomTmpfs, c.tmpfsInsts)
	return ids
}

// setTmpfs publishes one tmpfs mount's values with pmdalinux's arithmetic,
// filesys.*'s without the block size, availability and mount options.
func setTmpfs(b *cache.Builder, id uint32, st *fsStats) {
	used := st.blocks - min(st.bfree, st.blocks)
	if v, ok := kbytes(st.blocks, st.bsize); ok {
		b.SetU64(tmpfsCapacity.ID, id, v)
	}
	if v, ok := kbytes(used, st.bsize); ok {
		b.SetU64(tmpfsUsed.ID, id, v)
	}
	if v, ok := kbytes(st.bfree, st.bsize); ok {
		b.SetU64(tmpfsFree.ID, id, v)
	}
	b.SetU64(tmpfsMaxFiles.ID, id, st.files)
	b.SetU64(tmpfsUsedFiles.ID, id, st.files-min(st.ffree, st.files))
	b.SetU64(tmpfsFreeFiles.ID, id, st.ffree)
	// A tmpfs mounted with size=0 has no block limit and reports no
	// blocks: pmdalinux's 0/0, NaN; no value here.
	if used+st.bavail > 0 {
		b.SetDouble(tmpfsFull.ID, id, 100*float64(used)/float64(used+st.bavail))
	}
}
