package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: proc-t0 and proc-t1 hold sys/fs/{file-nr,inode-state,
// dentry-state,aio-nr,aio-max-nr} and locks (t1 adds a POSIX write lock
// with a waiter, an OFD lock and a lease).
func TestVFSValues(t *testing.T) {
	h := newHarness(t, NewVFSCollector, "proc-t0")
	h.MustSample(t0)
	for name, want := range map[string]int64{
		"vfs.files.count": 960, "vfs.files.free": 0, "vfs.files.max": 2466170, "vfs.inodes.count": 62000,
		"vfs.inodes.free": 100, "vfs.dentry.count": 89600, "vfs.dentry.free": 88000, "vfs.aio.count": 0, "vfs.aio.max": 65536,
	} {
		if got := int64(h.MustValue(name, cache.InstNone).Bits); got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	h.WantU64("vfs.locks.flock.write", cache.InstNone, 1)
	h.WantU64("vfs.locks.posix.read", cache.InstNone, 1)
	h.WantU64("vfs.locks.posix.count", cache.InstNone, 1)
	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantU64("vfs.locks.posix.write", cache.InstNone, 2) // the waiter is not a lock; OFD is POSIX
	h.WantU64("vfs.locks.posix.count", cache.InstNone, 3)
	h.WantU64("vfs.locks.lease.read", cache.InstNone, 1)
	h.WantU64("vfs.locks.lease.count", cache.InstNone, 1)
	if got := int64(h.MustValue("vfs.aio.count", cache.InstNone).Bits); got != 128 {
		t.Errorf("vfs.aio.count = %d at t1, want 128", got)
	}
}

// A missing file costs only its own metrics.
func TestVFSPartial(t *testing.T) {
	h := newHarness(t, NewVFSCollector, "proc-t0")
	os.Remove(filepath.Join(h.Proc, "locks"))
	os.WriteFile(filepath.Join(h.Proc, "sys", "fs", "dentry-state"), []byte("x y\n"), 0o644)
	h.Sample(t0)
	h.WantAbsent("vfs.locks.posix.count", cache.InstNone)
	h.WantAbsent("vfs.dentry.count", cache.InstNone)
	if got := int64(h.MustValue("vfs.files.count", cache.InstNone).Bits); got != 960 {
		t.Errorf("vfs.files.count = %d, want 960", got)
	}
}

func TestSysctlValues(t *testing.T) {
	h := newHarness(t, NewSysctlCollector, "proc-t0")
	h.MustSample(t0)
	h.WantU64("kernel.all.entropy.avail", cache.InstNone, 256)
	h.WantU64("kernel.all.entropy.poolsize", cache.InstNone, 256)
	h.WantU64("kernel.all.pid_max", cache.InstNone, 4194304)
	h.WantU64("kernel.all.nptys", cache.InstNone, 2)
	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantU64("kernel.all.entropy.avail", cache.InstNone, 200)
	os.Remove(filepath.Join(h.Proc, "sys", "kernel", "random", "poolsize"))
	h.Sample(t1.Add(t1.Sub(t0)))
	h.WantAbsent("kernel.all.entropy.poolsize", cache.InstNone)
	h.WantU64("kernel.all.entropy.avail", cache.InstNone, 200)
}
