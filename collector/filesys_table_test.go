package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// An unchanged mount table is chosen once: no link is resolved again
// until it changes or mountTableRefresh passes.
func TestFilesysTableChosenOnce(t *testing.T) {
	h, c := newFilesysHarness(t, "t0", engine.Env{}, newFSFake(), time.Second)
	resolved := 0
	resolve := c.resolve
	c.resolve = func(dev string) string { resolved++; return resolve(dev) }
	h.mustSample(t0)
	first := resolved
	if first == 0 {
		t.Fatal("the first sample resolved no device")
	}
	h.mustSample(t0.Add(10 * time.Second))
	if resolved != first {
		t.Errorf("an unchanged table was chosen again (%d resolutions, want %d)", resolved, first)
	}
	h.wantU64("hinv.nfilesys", cache.InstNone, uint64(len(fsWantT0)))
	h.wantU64("filesys.capacity", 0, 4000000) // statfs'd as before
	h.wantU64("filesys.capacity", 2, 3000)
	useHostTree(h, "remount")
	h.mustSample(t0.Add(20 * time.Second))
	if resolved == first {
		t.Error("a changed table was not chosen again")
	}
	now := resolved
	h.mustSample(t0.Add(20*time.Second + mountTableRefresh))
	if resolved == now {
		t.Error("the table was not chosen again after mountTableRefresh")
	}
}
