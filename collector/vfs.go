package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The virtual filesystem's tables, from /proc/sys/fs, and the file locks
// of /proc/locks, with pmdalinux's items. pmieconf's open-files rule
// watches vfs.files.
var (
	vfsFilesCount = engine.Row{Name: "hostcache.vfs.files.count", Cluster: clusterVFS, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsFilesFree = engine.Row{Name: "hostcache.vfs.files.free", Cluster: clusterVFS, Item: 1,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsFilesMax = engine.Row{Name: "hostcache.vfs.files.max", Cluster: clusterVFS, Item: 2,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsInodesCount = engine.Row{Name: "hostcache.vfs.inodes.count", Cluster: clusterVFS, Item: 3,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsInodesFree = engine.Row{Name: "hostcache.vfs.inodes.free", Cluster: clusterVFS, Item: 4,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsDentryCount = engine.Row{Name: "hostcache.vfs.dentry.count", Cluster: clusterVFS, Item: 5,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsDentryFree = engine.Row{Name: "hostcache.vfs.dentry.free", Cluster: clusterVFS, Item: 6,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsAIOCount = engine.Row{Name: "hostcache.vfs.aio.count", Cluster: clusterVFS, Item: 7,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsAIOMax = engine.Row{Name: "hostcache.vfs.aio.max", Cluster: clusterVFS, Item: 8,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()

	vfsPosixRead = engine.Row{Name: "hostcache.vfs.locks.posix.read", Cluster: clusterLocks, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsPosixWrite = engine.Row{Name: "hostcache.vfs.locks.posix.write", Cluster: clusterLocks, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsPosixCount = engine.Row{Name: "hostcache.vfs.locks.posix.count", Cluster: clusterLocks, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsFlockRead = engine.Row{Name: "hostcache.vfs.locks.flock.read", Cluster: clusterLocks, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsFlockWrite = engine.Row{Name: "hostcache.vfs.locks.flock.write", Cluster: clusterLocks, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsFlockCount = engine.Row{Name: "hostcache.vfs.locks.flock.count", Cluster: clusterLocks, Item: 5,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsLeaseRead = engine.Row{Name: "hostcache.vfs.locks.lease.read", Cluster: clusterLocks, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsLeaseWrite = engine.Row{Name: "hostcache.vfs.locks.lease.write", Cluster: clusterLocks, Item: 7,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	vfsLeaseCount = engine.Row{Name: "hostcache.vfs.locks.lease.count", Cluster: clusterLocks, Item: 8,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
)

// vfsTable is one /proc/sys/fs file and the metrics its leading numbers
// are, in order (proc(5)).
type vfsTable struct {
	file    *kernel.File
	metrics []cache.Desc
}

// vfsCollector reads /proc/sys/fs/{file-nr,inode-state,dentry-state,
// aio-nr,aio-max-nr} and /proc/locks.
type vfsCollector struct {
	tables []vfsTable
	locks  *kernel.File
	buf    []byte
	nums   []uint64
	counts kernel.LockCounts
}

// NewVFSCollector names the files below env.Proc.
func NewVFSCollector(env engine.Env) (engine.Collector, error) {
	fs, err := hostkit.ProcFile(env, filepath.Join("sys", "fs"))
	if err != nil {
		return nil, fmt.Errorf("vfs: %w", err)
	}
	file := func(name string) *kernel.File {
		return kernel.NewFileKept(env.Proc, filepath.Join(fs, name), env.KeepFiles)
	}
	return &vfsCollector{
		tables: []vfsTable{
			{file("file-nr"), []cache.Desc{vfsFilesCount, vfsFilesFree, vfsFilesMax}},
			{file("inode-state"), []cache.Desc{vfsInodesCount, vfsInodesFree}},
			{file("dentry-state"), []cache.Desc{vfsDentryCount, vfsDentryFree}},
			{file("aio-nr"), []cache.Desc{vfsAIOCount}},
			{file("aio-max-nr"), []cache.Desc{vfsAIOMax}},
		},
		locks: kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "locks"), env.KeepFiles),
	}, nil
}

func (c *vfsCollector) Name() string { return "vfs" }

func (c *vfsCollector) Source() cache.Source {
	var descs []cache.Desc
	for _, t := range c.tables {
		descs = append(descs, t.metrics...)
	}
	descs = append(descs, vfsPosixRead, vfsPosixWrite, vfsPosixCount, vfsFlockRead, vfsFlockWrite,
		vfsFlockCount, vfsLeaseRead, vfsLeaseWrite, vfsLeaseCount)
	return cache.Source{Name: c.Name(), Metrics: descs}
}

// Sample reads every file; one missing or odd costs only its own metrics.
func (c *vfsCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for _, t := range c.tables {
		if err := c.readTable(t, b); err != nil {
			errs = append(errs, err)
		}
	}
	if err := c.readLocks(b); err != nil {
		errs = append(errs, err)
	}
	return engine.PartialOf(errs, len(c.tables)+1)
}

// readTable publishes the leading numbers of one /proc/sys/fs file.
func (c *vfsCollector) readTable(t vfsTable, b *cache.Builder) error {
	var err error
	if c.buf, err = t.file.Read(c.buf); err != nil {
		return err
	}
	if c.nums, err = kernel.ParseNumbers(c.buf, c.nums); err != nil || len(c.nums) < len(t.metrics) {
		return fmt.Errorf("%s: want %d numbers, got %d: %v", t.file.Path, len(t.metrics), len(c.nums), err)
	}
	for i, d := range t.metrics {
		// The kernel's counts are longs; pmdalinux's metrics are 32-bit.
		b.SetI64(d.ID, cache.InstNone, int64(int32(c.nums[i])))
	}
	return nil
}

// readLocks counts /proc/locks' held locks by kind and mode.
func (c *vfsCollector) readLocks(b *cache.Builder) error {
	var err error
	if c.buf, err = c.locks.Read(c.buf); err != nil {
		return err
	}
	kernel.ParseLocks(c.buf, &c.counts)
	set := func(read, write, count cache.Desc, k struct{ Read, Write uint64 }) {
		b.SetU64(read.ID, cache.InstNone, k.Read)
		b.SetU64(write.ID, cache.InstNone, k.Write)
		b.SetU64(count.ID, cache.InstNone, k.Read+k.Write)
	}
	set(vfsPosixRead, vfsPosixWrite, vfsPosixCount, c.counts.Posix)
	set(vfsFlockRead, vfsFlockWrite, vfsFlockCount, c.counts.Flock)
	set(vfsLeaseRead, vfsLeaseWrite, vfsLeaseCount, c.counts.Lease)
	return nil
}
