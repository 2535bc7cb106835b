package collector

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// DefaultStatfsTimeout is how long a sample waits for any one mount's statfs.
const DefaultStatfsTimeout = 2 * time.Second

// filesys.* metrics, with pmdalinux's items in its filesys cluster. (Its
// item 0, hinv.nmounts, is not in pmdalinux's namespace, so not here.)
var (
	fsCapacity = engine.Row{Name: "hostcache.filesys.capacity", Cluster: clusterFilesys, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomFilesys}.Desc()
	fsUsed = engine.Row{Name: "hostcache.filesys.used", Cluster: clusterFilesys, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomFilesys}.Desc()
	fsFree = engine.Row{Name: "hostcache.filesys.free", Cluster: clusterFilesys, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomFilesys}.Desc()
	fsMaxFiles = engine.Row{Name: "hostcache.filesys.maxfiles", Cluster: clusterFilesys, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomFilesys}.Desc()
	fsUsedFiles = engine.Row{Name: "hostcache.filesys.usedfiles", Cluster: clusterFilesys, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomFilesys}.Desc()
	fsFreeFiles = engine.Row{Name: "hostcache.filesys.freefiles", Cluster: clusterFilesys, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomFilesys}.Desc()
	fsMountDir = engine.Row{Name: "hostcache.filesys.mountdir", Cluster: clusterFilesys, Item: 7,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomFilesys}.Desc()
	fsFull = engine.Row{Name: "hostcache.filesys.full", Cluster: clusterFilesys, Item: 8,
		Type: cache.TypeDouble, Sem: cache.SemInstant, InDom: indomFilesys, Peaks: true}.Desc()
	fsBlockSize = engine.Row{Name: "hostcache.filesys.blocksize", Cluster: clusterFilesys, Item: 9,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: indomFilesys}.Desc()
	fsAvail = engine.Row{Name: "hostcache.filesys.avail", Cluster: clusterFilesys, Item: 10,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomFilesys}.Desc()
	fsReadOnly = engine.Row{Name: "hostcache.filesys.readonly", Cluster: clusterFilesys, Item: 11,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomFilesys}.Desc()
	// hinv.nfilesys is item 0 of pmdalinux's filesys cluster.
	fsCount = engine.Row{Name: "hostcache.hinv.nfilesys", Cluster: clusterFilesys, Item: 0, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
)

// filesysCollector reads the mount table (/proc/self/mountinfo) and statfs's
// each mounted filesystem, every statfs in its own goroutine with a
// deadline (see statfsRunner): the filesys.* mounts and the tmpfs.* ones
// (tmpfs.go) in one pass.
type filesysCollector struct {
	hostkit.Paced // the mount table's minute
	fs            procfs.FS
	filter        engine.Filter
	ids           *cache.IDMap
	resolve       func(device string) string
	devRoot       string           // where resolve looks device names up
	wall          func() time.Time // the clock stamps are judged by (tests set it)
	stat          *statfsRunner
	insts         *cache.Instances // rebuilt only when members or labels change
	info          *kernel.File     // <proc>/self/mountinfo, compared with table.raw
	buf           []byte
	table         mountTable // filesys_table.go
	// tmpfsIDs and tmpfsInsts are the ids and table of the tmpfs mounts.
	tmpfsIDs   *cache.IDMap
	tmpfsInsts *cache.Instances
}

// NewFilesysCollector opens /proc below env.Proc. Device links are resolved
// below the directory that holds it.
func NewFilesysCollector(env engine.Env) (engine.Collector, error) {
	fs, err := procfs.NewFS(env.Proc)
	if err != nil {
		return nil, fmt.Errorf("filesys: %w", err)
	}
	root := filepath.Dir(filepath.Clean(env.Proc))
	return &filesysCollector{
		fs: fs, filter: env.Filter, ids: env.IDMap(indomFilesys), tmpfsIDs: env.IDMap(indomTmpfs),
		resolve: deviceResolver(root), devRoot: root, wall: time.Now,
		stat: newStatfsRunner(realStatfs, DefaultStatfsTimeout),
		info: kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "self", "mountinfo"), env.KeepFiles),
	}, nil
}

func (c *filesysCollector) Name() string { return "filesys" }

// StatfsPaths are the mount points each sample statfs's: make bench's
// floors make the same calls.
func (c *filesysCollector) StatfsPaths() []string { return slices.Clone(c.table.paths) }

// Stalls counts statfs calls that missed their deadline since start.
func (c *filesysCollector) Stalls() uint64 { return c.stat.stalls.Load() }

func (c *filesysCollector) Source() cache.Source {
	return cache.Source{
		Name: c.Name(),
		Metrics: append([]cache.Desc{fsCapacity, fsUsed, fsFree, fsMaxFiles, fsUsedFiles, fsFreeFiles,
			fsMountDir, fsFull, fsBlockSize, fsAvail, fsReadOnly, fsCount}, tmpfsMetrics...),
		InDoms: []cache.InDomDesc{{ID: indomFilesys, Name: "filesys"}, {ID: indomTmpfs, Name: "tmpfs"}},
	}
}

// Sample reads the mount table and statfs's the mounts. A mount whose
// statfs fails or is stuck stays listed, without values this sample.
func (c *filesysCollector) Sample(b *cache.Builder, now time.Time) error {
	var err error
	if c.buf, err = c.info.Read(c.buf); err != nil {
		return fmt.Errorf("reading mountinfo: %w", err)
	}
	t := &c.table
	if t.fresh(c.buf, now, c.Every(mountTableRefresh)) || c.linksHold(c.buf, now) {
		b.SetInDom(indomFilesys, c.insts)
		b.SetInDom(indomTmpfs, c.tmpfsInsts)
		b.SetU64(fsCount.ID, cache.InstNone, uint64(len(t.mounts)))
	} else if err := c.choose(b, c.buf, now); err != nil {
		return fmt.Errorf("reading mountinfo: %w", err)
	}
	// The paths are the filesys mounts' and then the tmpfs mounts'.
	for i, st := range c.stat.statAll(t.paths) {
		switch {
		case st == nil:
		case i < len(t.mounts):
			setFilesys(b, t.ids[i], t.mounts[i], st)
		default:
			setTmpfs(b, t.tmpfsIDs[i-len(t.mounts)], st)
		}
	}
	return nil
}

// publishInstances publishes the filesys domain and returns each mount's id.
func (c *filesysCollector) publishInstances(b *cache.Builder, mounts []mount) []uint32 {
	list := make([]cache.Instance, len(mounts))
	ids := make([]uint32, len(mounts))
	for i, m := range mounts {
		ids[i] = c.ids.ID(m.device)
		list[i] = cache.Instance{ID: ids[i], Name: m.device,
			Labels: []cache.Label{cache.StringLabel("fstype", m.fstype)}}
	}
	if c.insts == nil || !hostkit.SameHostInstances(c.insts.All(), list) {
		c.insts = cache.NewInstances(list)
	}
	b.SetInDom(indomFilesys, c.insts)
	b.SetU64(fsCount.ID, cache.InstNone, uint64(len(list)))
	return ids
}

// setFilesys publishes one mount's values with pmdalinux's arithmetic.
func setFilesys(b *cache.Builder, id uint32, m mount, st *fsStats) {
	used := st.blocks - min(st.bfree, st.blocks)
	if v, ok := kbytes(st.blocks, st.bsize); ok {
		b.SetU64(fsCapacity.ID, id, v)
	}
	if v, ok := kbytes(used, st.bsize); ok {
		b.SetU64(fsUsed.ID, id, v)
	}
	if v, ok := kbytes(st.bfree, st.bsize); ok {
		b.SetU64(fsFree.ID, id, v)
	}
	if v, ok := kbytes(st.bavail, st.bsize); ok {
		b.SetU64(fsAvail.ID, id, v)
	}
	// The file counts are 32-bit, as in pmdalinux: larger ones wrap.
	b.SetU64(fsMaxFiles.ID, id, st.files)
	b.SetU64(fsUsedFiles.ID, id, st.files-min(st.ffree, st.files))
	b.SetU64(fsFreeFiles.ID, id, st.ffree)
	b.SetString(fsMountDir.ID, id, m.dir)
	// Full is used over what non-root users could fill (used + avail), as
	// df's Use% is. pmdalinux divides by zero for a filesystem with no
	// blocks (NaN); we publish no value.
	if used+st.bavail > 0 {
		b.SetDouble(fsFull.ID, id, 100*float64(used)/float64(used+st.bavail))
	}
	b.SetU64(fsBlockSize.ID, id, st.bsize)
	var ro uint64
	if m.readonly {
		ro = 1
	}
	b.SetU64(fsReadOnly.ID, id, ro)
}

// kbytes converts n blocks of bsize bytes to Kbyte without overflowing;
// false only for a size beyond 2^64 Kbyte, which no statfs reports.
func kbytes(n, bsize uint64) (uint64, bool) {
	hi, lo := bits.Mul64(n, bsize)
	if hi >= 1024 {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, 1024)
	return q, true
}
