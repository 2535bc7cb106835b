package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The virtual filesystem's tables, from /proc/sys/fs, and the file locks
// of /proc/locks, with pmdalinux's items. pmieconf's open-files rule
// watches vfs.files.
var (
	vfsFilesCount  = engine.Metric("hostcache.vfs.files.count", clusterVFS, 0, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsFilesFree   = engine.Metric("hostcache.vfs.files.free", clusterVFS, 1, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsFilesMax    = engine.Metric("hostcache.vfs.files.max", clusterVFS, 2, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsInodesCount = engine.Metric("hostcache.vfs.inodes.count", clusterVFS, 3, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsInodesFree  = engine.Metric("hostcache.vfs.inodes.free", clusterVFS, 4, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsDentryCount = engine.Metric("hostcache.vfs.dentry.count", clusterVFS, 5, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsDentryFree  = engine.Metric("hostcache.vfs.dentry.free", clusterVFS, 6, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsAIOCount    = engine.Metric("hostcache.vfs.aio.count", clusterVFS, 7, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsAIOMax      = engine.Metric("hostcache.vfs.aio.max", clusterVFS, 8, cache.TypeI32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)

	vfsPosixRead  = engine.Metric("hostcache.vfs.locks.posix.read", clusterLocks, 0, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsPosixWrite = engine.Metric("hostcache.vfs.locks.posix.write", clusterLocks, 1, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsPosixCount = engine.Metric("hostcache.vfs.locks.posix.count", clusterLocks, 2, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsFlockRead  = engine.Metric("hostcache.vfs.locks.flock.read", clusterLocks, 3, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsFlockWrite = engine.Metric("hostcache.vfs.locks.flock.write", clusterLocks, 4, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsFlockCount = engine.Metric("hostcache.vfs.locks.flock.count", clusterLocks, 5, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsLeaseRead  = engine.Metric("hostcache.vfs.locks.lease.read", clusterLocks, 6, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsLeaseWrite = engine.Metric("hostcache.vfs.locks.lease.write", clusterLocks, 7, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	vfsLeaseCount = engine.Metric("hostcache.vfs.locks.lease.count", clusterLocks, 8, cache.TypeU32, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
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
	fs, err := procFile(env, filepath.Join("sys", "fs"))
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
