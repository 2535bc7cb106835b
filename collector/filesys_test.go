package collector

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// fsFake stands in for statfs(2): fixed figures per mount path, and paths
// whose statfs blocks until released, like a mount whose server died.
type fsFake struct {
	mu    sync.Mutex
	stats map[string]fsStats
	hang  map[string]chan struct{}
	calls map[string]int
}

// fsFixtureStats are the figures for the mounts of testdata/host/t0.
func fsFixtureStats() map[string]fsStats {
	return map[string]fsStats{
		"/":            {bsize: 4096, blocks: 1000000, bfree: 750000, bavail: 700000, files: 500000, ffree: 400000},
		"/data":        {bsize: 4096, blocks: 2000000, bfree: 1200000, bavail: 1100000, files: 1000, ffree: 1000},
		"/home":        {bsize: 1024, blocks: 3000, bfree: 3000, bavail: 3000, files: 10, ffree: 9},
		"/mnt/ro":      {bsize: 4096, blocks: 100, bfree: 0, bavail: 0, files: 10, ffree: 0},
		"/mnt/win":     {bsize: 512, blocks: 1001, bfree: 1, bavail: 1},
		"/mnt/my disk": {bsize: 4096, files: 5000000000, ffree: 4999999000},
		"/backup":      {bsize: 4096, blocks: 262144, bfree: 131072, bavail: 131072, files: 65536, ffree: 65000},
		"/mnt/new":     {bsize: 4096, blocks: 10, bfree: 5, bavail: 5},
	}
}

func newFSFake() *fsFake {
	return &fsFake{stats: fsFixtureStats(), hang: map[string]chan struct{}{}, calls: map[string]int{}}
}

func (f *fsFake) statfs(path string) (fsStats, error) {
	f.mu.Lock()
	f.calls[path]++
	st, ok := f.stats[path]
	wait := f.hang[path]
	f.mu.Unlock()
	if wait != nil {
		<-wait
	}
	if !ok {
		return fsStats{}, syscall.ENOENT
	}
	return st, nil
}

func (f *fsFake) callsOf(path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[path]
}

// makeDevTree lays out <root>/dev as a host's /dev: a by-label link to a
// disk, and a device-mapper link whose persistent name must be kept.
func makeDevTree(t *testing.T, root string) {
	t.Helper()
	dev := filepath.Join(root, "dev")
	for _, d := range []string{"disk/by-label", "mapper"} {
		if err := os.MkdirAll(filepath.Join(dev, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"vdf", "dm-0"} {
		if err := os.WriteFile(filepath.Join(dev, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"disk/by-label/backup": "../../vdf", "mapper/vg0-home": "../dm-0", "disk/by-label/escape": "/etc",
	} {
		if err := os.Symlink(target, filepath.Join(dev, link)); err != nil {
			t.Fatal(err)
		}
	}
}

// newFilesysHarness builds the filesys collector on a host tree with a
// fake statfs and the given deadline.
func newFilesysHarness(t *testing.T, tree string, env engine.Env, fake *fsFake, timeout time.Duration) (*harness, *filesysCollector) {
	t.Helper()
	h := newHostHarness(t, NewFilesysCollector, tree, env)
	makeDevTree(t, filepath.Dir(h.Proc))
	c := h.C.(*filesysCollector)
	c.stat = newStatfsRunner(fake.statfs, timeout)
	return h, c
}

// The mounts of testdata/host/t0 that pmdalinux's rule keeps, in mount
// order, with ids from a fresh id map. Everything else in that table is
// dropped: proc, sysfs, devtmpfs, devpts, cgroup, securityfs, configfs,
// squashfs (/dev/loop0), nfs, two tmpfs and autofs ("auto*") by type;
// cgroup2, overlay (not at /), nfs4 (server:/export4) and fuse.sshfs by a
// source outside /dev; and /dev/vdb1's bind mount (/srv) and overmount
// (/data again) as repeats of a device.
var fsWantT0 = []cache.Instance{
	{ID: 0, Name: "/dev/vda", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}},
	{ID: 1, Name: "/dev/vdb1", Labels: []cache.Label{{Name: "fstype", Value: `"xfs"`}}},
	{ID: 2, Name: "/dev/mapper/vg0-home", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}}, // link not followed
	{ID: 3, Name: "/dev/vdc", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}},
	{ID: 4, Name: "/dev/vde1", Labels: []cache.Label{{Name: "fstype", Value: `"fuseblk"`}}},
	{ID: 5, Name: "/dev/vdd", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}},
	{ID: 6, Name: "/dev/vdf", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}}, // /dev/disk/by-label/backup
}

func TestFilesysExcludesPseudoFilesystems(t *testing.T) {
	h, _ := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	h.MustSample(t0)
	if got := h.hostInstances(indomFilesys); !reflect.DeepEqual(got, fsWantT0) {
		t.Errorf("filesys instances\n got %v\nwant %v", got, fsWantT0)
	}
	// mountdir is the first mount point, as the kernel prints it.
	for id, dir := range []string{"/", "/data", "/home", "/mnt/ro", "/mnt/win", `/mnt/my\040disk`, "/backup"} {
		h.hostWantString("filesys.mountdir", uint32(id), dir)
	}
	// readonly: /dev/vdc is mounted ro; /backup's superblock is ro although
	// the mount is rw; /data's later ro overmount is a repeat, ignored.
	for id, ro := range []uint64{0, 0, 0, 1, 0, 0, 1} {
		h.WantU64("filesys.readonly", uint32(id), ro)
	}
}

func TestFilesysValues(t *testing.T) {
	h, _ := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	h.MustSample(t0)
	// "/" (id 0): 4096-byte blocks, 1000000 total, 750000 free, 700000 for
	// users. Kbyte = blocks * 4.
	h.WantU64("filesys.capacity", 0, 4000000)
	h.WantU64("filesys.used", 0, 1000000) // (1000000 - 750000) * 4
	h.WantU64("filesys.free", 0, 3000000)
	h.WantU64("filesys.avail", 0, 2800000)
	h.WantFloat("filesys.full", 0, 100*250000.0/950000) // used / (used + avail) = 26.3157...
	h.WantU64("filesys.maxfiles", 0, 500000)
	h.WantU64("filesys.usedfiles", 0, 100000)
	h.WantU64("filesys.freefiles", 0, 400000)
	h.WantU64("filesys.blocksize", 0, 4096)
	// /data (1): 800000 used blocks, 1100000 available: 42.105...%.
	h.WantFloat("filesys.full", 1, 100*800000.0/1900000)
	h.WantU64("filesys.used", 1, 3200000)
	// /home (2), 1 KiB blocks, empty: 0% full, not "no value".
	h.WantU64("filesys.capacity", 2, 3000)
	h.WantFloat("filesys.full", 2, 0)
	// /mnt/ro (3): no free block at all: 100%.
	h.WantFloat("filesys.full", 3, 100)
	// /mnt/win (4), 512-byte blocks: 1001 * 512 / 1024 = 500.5 -> 500 Kbyte,
	// used 1000 blocks = 500 Kbyte, 1 free block = 0 Kbyte (truncated, as
	// pmdalinux's integer division); full = 100 * 1000 / 1001.
	h.WantU64("filesys.capacity", 4, 500)
	h.WantU64("filesys.used", 4, 500)
	h.WantU64("filesys.free", 4, 0)
	h.WantFloat("filesys.full", 4, 100*1000.0/1001)
	// "/mnt/my disk" (5), statfs'd unescaped: no blocks, so no full (not
	// NaN); 5000000000 files wrap in the 32-bit counts as in pmdalinux:
	// 5000000000 - 2^32 = 705032704; free 4999999000 - 2^32 = 705031704.
	h.WantU64("filesys.capacity", 5, 0)
	h.WantAbsent("filesys.full", 5)
	h.WantU64("filesys.maxfiles", 5, 705032704)
	h.WantU64("filesys.freefiles", 5, 705031704)
	h.WantU64("filesys.usedfiles", 5, 1000)
	// /backup (6): 262144 4-KiB blocks = 1 GiB, half used.
	h.WantU64("filesys.capacity", 6, 1048576)
	h.WantFloat("filesys.full", 6, 50)
}

// The fault isolation: a mount whose statfs hangs costs the sample no more
// than the timeout, the other mounts still report, the hung one stays
// listed without values, no second statfs piles up behind the stuck one,
// and the mount reports again once its statfs returns.
func TestFilesysHungMount(t *testing.T) {
	fake := newFSFake()
	release := make(chan struct{})
	fake.hang["/backup"] = release
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unblock) // a failing test must not leave the goroutine stuck
	const timeout = 200 * time.Millisecond
	h, c := newFilesysHarness(t, "t0", engine.Env{}, fake, timeout)
	const backup = 6

	start := time.Now()
	h.MustSample(t0)
	if took := time.Since(start); took < timeout || took > timeout+900*time.Millisecond {
		t.Errorf("first sample took %v with a %v statfs timeout", took, timeout)
	}
	if got := h.hostInstanceID(indomFilesys, "/dev/vdf"); got != backup {
		t.Fatalf("/dev/vdf has id %d", got)
	}
	h.WantU64("filesys.capacity", 0, 4000000) // the others are unaffected
	h.WantU64("filesys.capacity", 5, 0)
	for _, m := range []string{"capacity", "used", "free", "avail", "full", "mountdir", "readonly", "maxfiles"} {
		h.WantAbsent("filesys."+m, backup)
	}
	if c.Stalls() != 1 {
		t.Errorf("Stalls() = %d after one timeout, want 1", c.Stalls())
	}

	// Still stuck: the next sample starts no second statfs for it, so it
	// does not wait for it either.
	start = time.Now()
	h.MustSample(t1)
	if took := time.Since(start); took >= timeout {
		t.Errorf("second sample waited %v on a mount already known to be stuck", took)
	}
	if n := fake.callsOf("/backup"); n != 1 {
		t.Errorf("%d statfs calls of the stuck mount, want 1", n)
	}
	h.WantAbsent("filesys.capacity", backup)
	h.WantU64("filesys.capacity", 0, 4000000)
	if got := h.hostInstanceID(indomFilesys, "/dev/vdf"); got != backup {
		t.Errorf("the stuck mount left the instance domain")
	}
	if c.Stalls() != 1 {
		t.Errorf("Stalls() = %d, want still 1", c.Stalls())
	}

	// The mount recovers: once the stuck call has returned, a fresh statfs
	// reports it again.
	unblock()
	deadline := time.Now().Add(5 * time.Second)
	for c.stat.busy("/backup") {
		if time.Now().After(deadline) {
			t.Fatal("the released statfs never finished")
		}
		time.Sleep(time.Millisecond)
	}
	h.MustSample(t1.Add(2 * time.Second))
	h.WantU64("filesys.capacity", backup, 1048576)
	if n := fake.callsOf("/backup"); n != 2 {
		t.Errorf("%d statfs calls of the recovered mount, want 2", n)
	}
}

// A statfs that fails (the mount point vanished under us) leaves that
// mount without values and the sample good.
func TestFilesysStatfsError(t *testing.T) {
	fake := newFSFake()
	delete(fake.stats, "/data")
	h, _ := newFilesysHarness(t, "t0", engine.Env{}, fake, time.Second)
	h.MustSample(t0)
	h.WantAbsent("filesys.capacity", 1)
	h.WantAbsent("filesys.mountdir", 1)
	h.WantU64("filesys.capacity", 0, 4000000)
	if n := len(h.hostInstances(indomFilesys)); n != 7 {
		t.Errorf("%d instances, want 7 (the failing mount stays listed)", n)
	}
}

// Ids persist: an unmounted device stops being listed and its id is never
// reused; after an id map reload (a restart) every name keeps its id.
func TestFilesysStableIDs(t *testing.T) {
	env := engine.Env{IDDir: t.TempDir()}
	h, _ := newFilesysHarness(t, "t0", env, newFSFake(), time.Second)
	h.MustSample(t0)
	first := h.hostInstances(indomFilesys)

	useHostTree(h, "remount") // /dev/vdc unmounted, /dev/vdg mounted on /mnt/new
	h.MustSample(t1)
	if id := h.hostInstanceID(indomFilesys, "/dev/vdg"); id != 7 {
		t.Errorf("new device /dev/vdg got id %d, want 7 (3 stays /dev/vdc's)", id)
	}
	for _, x := range h.hostInstances(indomFilesys) {
		if x.Name == "/dev/vdc" {
			t.Error("unmounted /dev/vdc still listed")
		}
	}
	h.WantAbsent("filesys.capacity", 3)
	h.WantU64("filesys.capacity", 7, 40) // /mnt/new: 10 blocks of 4 KiB

	// A restart: a new collector loads the saved ids.
	h2, _ := newFilesysHarness(t, "t0", env, newFSFake(), time.Second)
	h2.MustSample(t0)
	if got := h2.hostInstances(indomFilesys); !reflect.DeepEqual(got, first) {
		t.Errorf("ids changed across a reload:\n got %v\nwant %v", got, first)
	}
	useHostTree(h2, "remount")
	h2.MustSample(t1)
	if id := h2.hostInstanceID(indomFilesys, "/dev/vdg"); id != 7 {
		t.Errorf("/dev/vdg has id %d after a reload, want 7", id)
	}
}

// An unchanged mount table republishes the same instance table.
func TestFilesysInstancesReused(t *testing.T) {
	h, _ := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	h.MustSample(t0)
	a, _ := h.Store.Load().InDom(indomFilesys)
	useHostTree(h, "t1")
	h.MustSample(t1)
	b, _ := h.Store.Load().InDom(indomFilesys)
	if a != b {
		t.Error("instance table rebuilt although the mounts did not change")
	}
	useHostTree(h, "remount")
	h.MustSample(t1.Add(2 * time.Second))
	if c, _ := h.Store.Load().InDom(indomFilesys); c == b {
		t.Error("instance table kept although the mounts changed")
	}
}

func TestFilesysFilter(t *testing.T) {
	env := engine.Env{Filter: engine.Filter{"filesys": {Exclude: regexp.MustCompile(`^/dev/mapper/|^/dev/vdd$`)}}}
	fake := newFSFake()
	h, _ := newFilesysHarness(t, "t0", env, fake, time.Second)
	h.MustSample(t0)
	var names []string
	for _, x := range h.hostInstances(indomFilesys) {
		names = append(names, x.Name)
	}
	want := []string{"/dev/vda", "/dev/vdb1", "/dev/vdc", "/dev/vde1", "/dev/vdf"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("filtered instances %v, want %v", names, want)
	}
	if fake.callsOf("/home") != 0 || fake.callsOf("/mnt/my disk") != 0 {
		t.Error("an excluded mount was statfs'd")
	}
}

// In a container the root is an overlay: pmdalinux reports it (mounted at
// "/"), named by its source, and the host disk once, at its first mount.
func TestFilesysContainerRoot(t *testing.T) {
	fake := newFSFake()
	h, _ := newFilesysHarness(t, "container", engine.Env{}, fake, time.Second)
	h.MustSample(t0)
	want := []cache.Instance{
		{ID: 0, Name: "overlay", Labels: []cache.Label{{Name: "fstype", Value: `"overlay"`}}},
		{ID: 1, Name: "/dev/vda", Labels: []cache.Label{{Name: "fstype", Value: `"ext4"`}}},
	}
	if got := h.hostInstances(indomFilesys); !reflect.DeepEqual(got, want) {
		t.Errorf("instances %v, want %v", got, want)
	}
	h.hostWantString("filesys.mountdir", 1, "/data")
	h.WantU64("filesys.capacity", 0, 4000000) // statfs("/")
}

func TestFilesysMalformedAndMissing(t *testing.T) {
	for _, tree := range []string{"malformed", "empty"} {
		t.Run(tree, func(t *testing.T) {
			h, _ := newFilesysHarness(t, tree, engine.Env{}, newFSFake(), time.Second)
			if err := h.Sample(t0); err == nil {
				t.Fatal("sample succeeded")
			}
			h.NothingPublished()
		})
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`/mnt/my\040disk`: "/mnt/my disk", `/a\011b\012c\134d`: "/a\tb\nc\\d",
		`/plain`: "/plain", `/trailing\04`: `/trailing\04`, `/bad\999`: `/bad\999`, `\`: `\`,
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDeviceResolver(t *testing.T) {
	root := t.TempDir()
	makeDevTree(t, root)
	resolve := deviceResolver(root)
	for in, want := range map[string]string{
		"/dev/disk/by-label/backup": "/dev/vdf",
		"/dev/disk/by-label/escape": "/dev/disk/by-label/escape", // leads outside the root
		"/dev/nonexistent":          "/dev/nonexistent",
		"overlay":                   "overlay", // not a path: never resolved
	} {
		if got := resolve(in); got != want {
			t.Errorf("resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

// selectMounts on its own, with a mount list naming every kind of pseudo
// filesystem next to real block devices.
func TestSelectMountsRule(t *testing.T) {
	mi := func(src, dir, typ string) *procfs.MountInfo {
		return &procfs.MountInfo{Source: src, MountPoint: dir, FSType: typ}
	}
	infos := []*procfs.MountInfo{
		mi("proc", "/proc", "proc"), mi("sysfs", "/sys", "sysfs"), mi("tmpfs", "/run", "tmpfs"),
		mi("/dev/shm-ish", "/dev/shm", "tmpfs"), // tmpfs even with a /dev source
		mi("cgroup2", "/sys/fs/cgroup", "cgroup2"), mi("overlay", "/var/lib/x/merged", "overlay"),
		mi("/dev/sda1", "/boot", "ext4"), mi("/dev/nvme0n1p2", "/", "btrfs"),
		mi("/dev/nvme0n1p2", "/home", "btrfs"), // btrfs subvolume: same device
		mi("systemd-1", "/boot/efi", "autofs"), mi("/dev/sda2", "/boot/efi", "vfat"),
		mi("/dev/loop3", "/snap/x", "squashfs"), mi("/dev/md/raid1", "/raid", "ext4"),
	}
	got := selectMounts(infos, func(d string) string { return d + "!" })
	var names []string
	for _, m := range got {
		names = append(names, m.device+" "+m.dir)
	}
	want := []string{"/dev/sda1! /boot", "/dev/nvme0n1p2! /", "/dev/sda2! /boot/efi", "/dev/md/raid1 /raid"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("selected %v, want %v", names, want)
	}
}

// statAll never reports an error's figures.
func TestStatfsRunnerError(t *testing.T) {
	r := newStatfsRunner(func(string) (fsStats, error) { return fsStats{}, errors.New("EIO") }, time.Second)
	if got := r.statAll([]string{"/x"}); got[0] != nil {
		t.Errorf("failed statfs gave %+v", got[0])
	}
	if r.stalls.Load() != 0 {
		t.Error("a failure counted as a stall")
	}
}

// A statfs that panics fails its own mount, not the agent.
func TestStatfsRunnerPanic(t *testing.T) {
	r := newStatfsRunner(func(p string) (fsStats, error) {
		if p == "/bad" {
			panic("boom")
		}
		return fsStats{bsize: 1}, nil
	}, time.Second)
	got := r.statAll([]string{"/bad", "/good"})
	if got[0] != nil || got[1] == nil {
		t.Errorf("results %v", got)
	}
	if r.busy("/bad") {
		t.Error("the panicked call is still in flight")
	}
}

// One worker statfs's the paths in turn; when it is stuck in a call,
// another takes over the rest, so a hung mount first in the list costs
// the others nothing but the hand-over.
func TestStatfsRunnerHandsOverPastAStuckCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	r := newStatfsRunner(func(p string) (fsStats, error) {
		if p == "/stuck" {
			<-release
		}
		return fsStats{bsize: 1}, nil
	}, time.Second)
	start := time.Now()
	got := r.statAll([]string{"/a", "/stuck", "/c", "/d"})
	if got[0] == nil || got[1] != nil || got[2] == nil || got[3] == nil {
		t.Fatalf("results %v, want all but /stuck", got)
	}
	if took := time.Since(start); took < time.Second {
		t.Errorf("returned after %v, before the deadline, with a call still out", took)
	}
	if r.stalls.Load() != 1 || !r.busy("/stuck") {
		t.Errorf("stalls %d, busy %v: want the stuck call counted once and in flight", r.stalls.Load(), r.busy("/stuck"))
	}
}

// Once a sample has stopped waiting, its workers start no more calls: the
// mounts not reached have no values this sample and are free for the
// next one, not kept busy by calls whose answer nobody reads.
func TestStatfsRunnerStartsNothingAfterTheDeadline(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	calls := map[string]int{}
	r := newStatfsRunner(func(p string) (fsStats, error) {
		mu.Lock()
		calls[p]++
		mu.Unlock()
		if p == "/stuck" {
			<-release
		}
		return fsStats{bsize: 1}, nil
	}, 5*time.Millisecond)
	got := r.statAll([]string{"/stuck", "/later"})
	if got[0] != nil || got[1] != nil {
		t.Fatalf("results %v, want none: the deadline came first", got)
	}
	close(release)
	for r.busy("/stuck") {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if calls["/later"] != 0 {
		t.Errorf("/later was statfs'd %d times after the sample stopped waiting", calls["/later"])
	}
}
