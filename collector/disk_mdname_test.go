package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// mdLink makes <root>/dev/md/name a link to ../target, as udev does.
func mdLink(t *testing.T, root, name, target string) {
	t.Helper()
	dir := filepath.Join(root, "dev", "md")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../"+target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// An md array with a persistent name in /dev/md is listed under it, as
// pmdalinux lists it; hinv.map.mdname maps it back to the kernel name,
// and its sysfs figures still come from the kernel name. udev's numbered
// entries are not names.
func TestDiskMDPersistentName(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	mdLink(t, f.root, "0", "md127")
	mdLink(t, f.root, "root", "md127")
	mdLink(t, f.root, "other", "md126")
	f.MustSample(t0)
	md, ok := f.indom(indomMD).Lookup("root")
	if !ok {
		t.Fatalf("md127 not listed as root: %v", f.indom(indomMD).All())
	}
	if v, ok := f.Value("hinv.map.mdname", md); !ok || v.Str != "md127" {
		t.Errorf("hinv.map.mdname of root = %q, want md127", v.Str)
	}
	f.WantU64("disk.md.capacity", md, 1046528)
	f.WantU64("disk.md.status", md, 0)
}

// Renamed in place (the link now names another array), the array takes
// its new name at the layout's next check.
func TestDiskMDRenamedAtTheMinuteCheck(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	if _, ok := f.indom(indomMD).Lookup("md127"); !ok {
		t.Fatalf("md127 not listed by its kernel name: %v", f.indom(indomMD).All())
	}
	mdLink(t, f.root, "data", "md127")
	f.MustSample(t0.Add(2 * diskLayoutRefresh))
	if _, ok := f.indom(indomMD).Lookup("data"); !ok {
		t.Errorf("after the minute check md127 is not listed as data: %v", f.indom(indomMD).All())
	}
}

func TestMDNameWithoutLinks(t *testing.T) {
	if got := mdName(filepath.Join(t.TempDir(), "absent"), "md0"); got != "md0" {
		t.Errorf("no /dev/md: %q, want md0", got)
	}
}
