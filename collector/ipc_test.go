package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture proc-t0/sysvipc: two message queues (2 messages of 87 bytes in
// all, 5 of 1000), one semaphore set of 3, two shared memory segments of
// 100000 and 4096 bytes (25 and 1 pages).
func TestIPCValues(t *testing.T) {
	h := newHarness(t, NewIPCCollector, "proc-t0")
	h.MustSample(t0)
	page := uint64(os.Getpagesize())
	for name, want := range map[string]uint64{
		"ipc.msg.used_queues": 2, "ipc.msg.tot_msg": 7, "ipc.msg.tot_bytes": 1087,
		"ipc.sem.used_sem": 1, "ipc.sem.tot_sem": 3,
		"ipc.shm.used_ids": 2, "ipc.shm.tot": (100000+page-1)/page*page + 4096, "ipc.shm.rss": 12288, "ipc.shm.swp": 4096,
	} {
		h.WantU64(name, cache.InstNone, want)
	}
}

// An older kernel's shm table without rss and swap columns: those two
// have no value rather than a false zero; the rest are counted.
func TestIPCOlderShm(t *testing.T) {
	h := newHarness(t, NewIPCCollector, "proc-t0")
	os.WriteFile(filepath.Join(h.Proc, "sysvipc", "shm"), []byte(
		"       key      shmid perms       size  cpid  lpid nattch   uid   gid  cuid  cgid      atime      dtime      ctime\n"+
			"         0          1   600       4096 13397     0      1     0     0     0     0          0          0 1795573539\n"), 0o644)
	os.Remove(filepath.Join(h.Proc, "sysvipc", "sem"))
	h.Sample(t0)
	h.WantU64("ipc.shm.used_ids", cache.InstNone, 1)
	h.WantU64("ipc.shm.tot", cache.InstNone, 4096)
	h.WantAbsent("ipc.shm.rss", cache.InstNone)
	h.WantAbsent("ipc.sem.used_sem", cache.InstNone)
	h.WantU64("ipc.msg.used_queues", cache.InstNone, 2)
}
