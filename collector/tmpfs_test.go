package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// newTmpfsFake is statfs for the mounts of testdata/tmpfs: the root disk
// and the tmpfs mounts, by unescaped mount point.
func newTmpfsFake() *fsFake {
	return &fsFake{stats: map[string]fsStats{
		"/":              {bsize: 4096, blocks: 1000000, bfree: 750000, bavail: 700000, files: 500000, ffree: 400000},
		"/dev/shm":       {bsize: 4096, blocks: 1000, bfree: 750, bavail: 750, files: 500, ffree: 400},
		"/run":           {bsize: 4096, blocks: 100, bfree: 100, bavail: 100, files: 1000, ffree: 990},
		"/run/user/1000": {bsize: 4096, blocks: 10, bfree: 0, bavail: 0, files: 100, ffree: 0},
		"/run/user/1001": {bsize: 4096, blocks: 10, bfree: 5, bavail: 5, files: 100, ffree: 50},
		"/mnt/my tmp":    {bsize: 4096, blocks: 2, bfree: 1, bavail: 1, files: 20, ffree: 19},
		"/mnt/unlimited": {bsize: 4096, files: 3000, ffree: 2999},
	}, hang: map[string]chan struct{}{}, calls: map[string]int{}}
}

// newTmpfsHarness builds the filesys collector on testdata/tmpfs/<tree>
// with a fake statfs and the given deadline.
func newTmpfsHarness(t *testing.T, tree string, env engine.Env, fake *fsFake, timeout time.Duration) (*harness, *filesysCollector) {
	t.Helper()
	root := t.TempDir()
	h := &harness{&collectortest.Harness{T: t, Proc: filepath.Join(root, "proc")}}
	if err := os.Mkdir(h.Proc, 0o755); err != nil {
		t.Fatal(err)
	}
	useTmpfsTree(h, tree)
	env.Proc = h.Proc
	h.Attach(NewFilesysCollector, env)
	c := h.C.(*filesysCollector)
	c.stat = newStatfsRunner(fake.statfs, timeout)
	return h, c
}

// useTmpfsTree replaces the /proc root by testdata/tmpfs/<tree>/proc.
func useTmpfsTree(h *harness, tree string) {
	h.T.Helper()
	if err := os.RemoveAll(filepath.Join(h.Proc, "self")); err != nil {
		h.T.Fatal(err)
	}
	copyHostTree(h.T, filepath.Join(testdataDir, "tmpfs", tree, "proc"), h.Proc)
}

// The tmpfs mounts of testdata/tmpfs/t0 in mount order: named by mount
// point as the kernel prints it, /dev/shm once although it is mounted
// twice; devtmpfs and ramfs are not tmpfs.
var tmpfsWantT0 = []cache.Instance{
	{ID: 0, Name: "/dev/shm"}, {ID: 1, Name: "/run"}, {ID: 2, Name: "/run/user/1000"},
	{ID: 3, Name: `/mnt/my\040tmp`}, {ID: 4, Name: "/mnt/unlimited"},
}

func TestTmpfsValues(t *testing.T) {
	h, _ := newTmpfsHarness(t, "t0", engine.Env{}, newTmpfsFake(), time.Second)
	h.MustSample(t0)
	if got := h.hostInstances(indomTmpfs); !reflect.DeepEqual(got, tmpfsWantT0) {
		t.Errorf("tmpfs instances\n got %v\nwant %v", got, tmpfsWantT0)
	}
	if got := h.hostInstances(indomFilesys); len(got) != 1 || got[0].Name != "/dev/vda" {
		t.Errorf("filesys instances %v, want /dev/vda alone", got)
	}
	// /dev/shm: 1000 blocks of 4 KiB, 750 free.
	h.WantU64("tmpfs.capacity", 0, 4000)
	h.WantU64("tmpfs.used", 0, 1000)
	h.WantU64("tmpfs.free", 0, 3000)
	h.WantU64("tmpfs.maxfiles", 0, 500)
	h.WantU64("tmpfs.usedfiles", 0, 100)
	h.WantU64("tmpfs.freefiles", 0, 400)
	h.WantFloat("tmpfs.full", 0, 25)
	h.WantFloat("tmpfs.full", 1, 0)   // /run, empty
	h.WantFloat("tmpfs.full", 2, 100) // /run/user/1000, no block free
	h.WantU64("tmpfs.capacity", 3, 8) // statfs'd unescaped
	h.WantFloat("tmpfs.full", 3, 50)
	// /mnt/unlimited, size=0: no blocks, so no full (not NaN).
	h.WantU64("tmpfs.capacity", 4, 0)
	h.WantAbsent("tmpfs.full", 4)
	h.WantU64("tmpfs.usedfiles", 4, 1)
	h.WantU64("filesys.capacity", 0, 4000000) // the disk as before

	// The same table again: the same instances, values statfs'd afresh.
	a, _ := h.Store.Load().InDom(indomTmpfs)
	h.MustSample(t1)
	if b, _ := h.Store.Load().InDom(indomTmpfs); a != b {
		t.Error("tmpfs table rebuilt although the mounts did not change")
	}
	h.WantU64("tmpfs.used", 0, 1000)
}

// An unmounted tmpfs keeps its id from reuse; a new one gets the next;
// after a restart every mount point keeps its id.
func TestTmpfsStableIDs(t *testing.T) {
	env := engine.Env{IDDir: t.TempDir()}
	h, _ := newTmpfsHarness(t, "t0", env, newTmpfsFake(), time.Second)
	h.MustSample(t0)
	useTmpfsTree(h, "t1")
	h.MustSample(t1)
	if id := h.hostInstanceID(indomTmpfs, "/run/user/1001"); id != 5 {
		t.Errorf("/run/user/1001 has id %d, want 5", id)
	}
	h.WantAbsent("tmpfs.capacity", 2)
	h.WantFloat("tmpfs.full", 5, 50)

	again, _ := newTmpfsHarness(t, "t0", env, newTmpfsFake(), time.Second)
	again.MustSample(t0)
	if got := again.hostInstances(indomTmpfs); !reflect.DeepEqual(got, tmpfsWantT0) {
		t.Errorf("ids after a restart\n got %v\nwant %v", got, tmpfsWantT0)
	}
}

// A tmpfs whose statfs hangs costs the sample no more than the deadline
// and leaves the other mounts' values, as a hung disk does.
func TestTmpfsHungMount(t *testing.T) {
	fake := newTmpfsFake()
	release := make(chan struct{})
	fake.hang["/run"] = release
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	h, c := newTmpfsHarness(t, "t0", engine.Env{}, fake, 200*time.Millisecond)
	h.MustSample(t0)
	h.WantAbsent("tmpfs.capacity", 1)
	h.WantU64("tmpfs.capacity", 0, 4000)
	h.WantU64("tmpfs.capacity", 2, 40)
	h.WantU64("filesys.capacity", 0, 4000000)
	if got := h.hostInstanceID(indomTmpfs, "/run"); got != 1 {
		t.Errorf("the stuck tmpfs has id %d, want it listed with 1", got)
	}
	if c.Stalls() != 1 {
		t.Errorf("Stalls() = %d, want 1", c.Stalls())
	}
}
