package collector

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A disk replaced while the device set looked steady (so that its lines
// were being reused) is still found, and read afresh from /sys.
func TestDiskReplacedAfterSteadySamples(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	f.load("t1")
	f.MustSample(t1) // the same devices: laid out as before
	f.load("reset")
	// The new disk has done more I/O than the old one had at t0 (15000
	// reads and writes) but less than at t1 (15300): only the layout,
	// which saw t1, can tell it is another device.
	stats := filepath.Join(f.root, "proc", "diskstats")
	data, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	fresh := strings.Replace(string(data), "sda 1 1 1 1 1 1 1 1 0", "sda 10050 1 1 1 5050 1 1 1 0", 1)
	if err := os.WriteFile(stats, []byte(fresh), 0o644); err != nil {
		t.Fatal(err)
	}
	f.MustSample(t1.Add(2 * time.Second))
	f.WantU64("disk.dev.read", diskSda, 10050)
	f.WantAbsent("rate.disk.dev.read", diskSda)
	f.WantFloat("rate.disk.dev.read", diskVda, 0)
	if got := f.labelsOf(indomDisk, "sda"); !slices.Contains(got, cache.StringLabel("model", "WDC WD40EFRX-68N")) {
		t.Errorf("sda labels after replacement = %v", got)
	}
}

// A steady device set is placed once, then reused until the refresh; the
// reused layout publishes what a fresh placement does.
func TestDiskLayoutReusedUntilRefresh(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	c := f.C.(*diskCollector)
	placed := c.layout.placed
	f.load("t1")
	f.MustSample(t1)
	if !c.layout.placed.Equal(placed) {
		t.Fatal("an unchanged device set was placed again")
	}
	reused := f.indom(indomDisk)
	f.WantFloat("rate.disk.dev.read", diskSda, 100)
	f.MustSample(t1.Add(diskLayoutRefresh))
	if c.layout.placed.Equal(placed) {
		t.Error("layout not refreshed after diskLayoutRefresh")
	}
	if f.indom(indomDisk) != reused {
		t.Error("the refresh rebuilt an unchanged instance table")
	}
}

// At the refresh an unchanged device set is not placed again: each dm
// device's mapped name is read and, as it is the same, the layout stands.
// A dm device renamed in place shows its new name at the next refresh,
// not before.
func TestDiskLayoutRefreshReadsOnlyDMNames(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	c := f.C.(*diskCollector)
	f.MustSample(t0.Add(diskLayoutRefresh))
	if c.layout.placements != 1 {
		t.Fatalf("%d placements after the refresh of an unchanged set, want 1", c.layout.placements)
	}
	if !c.layout.placed.Equal(t0.Add(diskLayoutRefresh)) {
		t.Error("the layout whose dm names held is not trusted from the refresh on")
	}
	name := filepath.Join(f.root, "sys", "block", "dm-0", "dm", "name")
	if err := os.WriteFile(name, []byte("vg0-renamed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dmNames := func() []string {
		var out []string
		for _, x := range f.indom(indomDM).All() {
			out = append(out, x.Name)
		}
		return out
	}
	f.MustSample(t0.Add(diskLayoutRefresh + time.Second))
	if got := dmNames(); !slices.Equal(got, []string{"vg0-root"}) {
		t.Errorf("dm names a second after the rename = %v, want the old name until the refresh", got)
	}
	f.MustSample(t0.Add(2 * diskLayoutRefresh))
	if got := dmNames(); !slices.Equal(got, []string{"vg0-renamed"}) {
		t.Errorf("dm names at the refresh after the rename = %v, want [vg0-renamed]", got)
	}
	if c.layout.placements != 2 {
		t.Errorf("%d placements, want 2: the rename places the set again", c.layout.placements)
	}
}
