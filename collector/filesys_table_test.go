package collector

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// countResolves counts the device names c resolves from now on.
func countResolves(c *filesysCollector) *int {
	n := new(int)
	resolve := c.resolve
	c.resolve = func(dev string) string { *n++; return resolve(dev) }
	return n
}

// An unchanged mount table is chosen once: no link is resolved again
// until it changes or mountTableRefresh passes.
func TestFilesysTableChosenOnce(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	resolves := countResolves(c)
	h.MustSample(t0)
	first := *resolves
	if first == 0 {
		t.Fatal("the first sample resolved no device")
	}
	h.MustSample(t0.Add(10 * time.Second))
	if *resolves != first {
		t.Errorf("an unchanged table was chosen again (%d resolutions, want %d)", *resolves, first)
	}
	h.WantU64("hinv.nfilesys", cache.InstNone, uint64(len(fsWantT0)))
	h.WantU64("filesys.capacity", 0, 4000000) // statfs'd as before
	h.WantU64("filesys.capacity", 2, 3000)
	useHostTree(h, "remount")
	h.MustSample(t0.Add(20 * time.Second))
	if *resolves == first {
		t.Error("a changed table was not chosen again")
	}
	now := *resolves
	h.MustSample(t0.Add(20*time.Second + mountTableRefresh))
	if *resolves == now {
		t.Error("the table was not chosen again after mountTableRefresh")
	}
}

// A minute on, an unchanged table's device links are resolved again: if
// they lead where they did, the table stands (mountinfo is not parsed
// again); if one moved, the table is chosen afresh with the new device.
func TestFilesysLinksCheckedEachMinute(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	h.MustSample(t0)
	chosen := c.table.chosen
	h.MustSample(t0.Add(mountTableRefresh))
	if c.table.chosen.Equal(chosen) || h.hostInstanceID(indomFilesys, "/dev/vdf") != 6 {
		t.Fatal("the links held, but the table was not renewed for another minute")
	}
	dev := filepath.Join(filepath.Dir(h.Proc), "dev")
	if err := os.WriteFile(filepath.Join(dev, "vdg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dev, "disk", "by-label", "backup")
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../vdg", link); err != nil {
		t.Fatal(err)
	}
	listed := func(name string) bool {
		return slices.ContainsFunc(h.hostInstances(indomFilesys), func(x cache.Instance) bool { return x.Name == name })
	}
	h.MustSample(t0.Add(mountTableRefresh + time.Second))
	if listed("/dev/vdg") {
		t.Fatal("a link that moved within the minute was followed before its minute was up")
	}
	h.MustSample(t0.Add(2 * mountTableRefresh))
	if !listed("/dev/vdg") || listed("/dev/vdf") {
		t.Error("the moved link's new device is not listed in place of the old after its minute")
	}
}

// settleDevTree makes the tree below root look long unchanged: its
// directories' mtimes an hour old, and the collector's clock an hour on
// (chtimes sets ctime, which cannot be set back).
func settleDevTree(t *testing.T, c *filesysCollector, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	c.wall = func() time.Time { return time.Now().Add(time.Hour) }
}

// While no directory on their way changed, the names that resolved to
// themselves are not resolved again each minute: only the link is.
func TestFilesysStampsSpareNamesThatAreNotLinks(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	root := filepath.Dir(h.Proc)
	settleDevTree(t, c, root)
	resolves := countResolves(c)
	h.MustSample(t0)
	if !c.table.stampsTrusted {
		t.Fatal("stamps of directories unchanged for an hour are not trusted")
	}
	first := *resolves
	h.MustSample(t0.Add(mountTableRefresh))
	if got := *resolves - first; got != 1 {
		t.Errorf("%d names resolved at the minute, want 1 (the by-label link; %d at the choice)", got, first)
	}
}

// A name that resolved to itself and is made a link shows at the next
// minute: its directory's stamp changed, so every name is resolved again.
func TestFilesysStampsSeeANameMadeALink(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	root := filepath.Dir(h.Proc)
	settleDevTree(t, c, root)
	h.MustSample(t0)
	dev := filepath.Join(root, "dev")
	if err := os.WriteFile(filepath.Join(dev, "vdz"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("vdz", filepath.Join(dev, "vdc")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0.Add(mountTableRefresh))
	names := h.hostInstances(indomFilesys)
	if !slices.ContainsFunc(names, func(x cache.Instance) bool { return x.Name == "/dev/vdz" }) {
		t.Errorf("/dev/vdc made a link to /dev/vdz is not followed at the minute: %v", names)
	}
}

// Directories changed within stampSettle are not trusted: at the minute
// every name is resolved again, as if there were no stamps.
func TestFilesysStampsOfFreshDirectoriesNotTrusted(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	resolves := countResolves(c)
	h.MustSample(t0)
	if c.table.stampsTrusted {
		t.Fatal("stamps of directories made just now are trusted")
	}
	first := *resolves
	h.MustSample(t0.Add(mountTableRefresh))
	if got := *resolves - first; got != first {
		t.Errorf("%d names resolved at the minute, want all %d", got, first)
	}
}
