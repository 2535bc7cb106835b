package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// slabinfoWantT0 are the caches of testdata/slabinfo/t0 in id order: the
// header and column lines skipped, "fake cache" and "odd -name" named by
// pmdalinux's rule, the broken line (a letter for num_objs, a missing
// column) dropped, and kmalloc-64, listed twice, once.
var slabinfoWantT0 = []cache.Instance{
	{ID: 0, Name: "bio-312"}, {ID: 1, Name: "TCPv6"}, {ID: 2, Name: "dentry"}, {ID: 3, Name: "9p-fcall-cache"},
	{ID: 4, Name: "fake_cache"}, {ID: 5, Name: "odd__name"}, {ID: 6, Name: "kmalloc-64"},
}

func TestSlabinfoValues(t *testing.T) {
	h := newHarness(t, NewSlabinfoCollector, "slabinfo/t0")
	h.MustSample(t0)
	if got := h.hostInstances(indomSlab); !reflect.DeepEqual(got, slabinfoWantT0) {
		t.Errorf("instances\n got %v\nwant %v", got, slabinfoWantT0)
	}
	page := uint64(os.Getpagesize())
	// dentry: 196656 of 196980 objects of 192 bytes, 21 a slab of one
	// page, 9380 slabs of 9380 active.
	h.WantU64("mem.slabinfo.objects.active", 2, 196656)
	h.WantU64("mem.slabinfo.objects.total", 2, 196980)
	h.WantU64("mem.slabinfo.objects.size", 2, 192)
	h.WantU64("mem.slabinfo.slabs.objects_per_slab", 2, 21)
	h.WantU64("mem.slabinfo.slabs.pages_per_slab", 2, 1)
	h.WantU64("mem.slabinfo.slabs.active", 2, 9380)
	h.WantU64("mem.slabinfo.slabs.total", 2, 9380)
	// The pages the active objects fill, rounded down as pmdalinux does:
	// 196656 * 4096 / 21 = 38357284 with 4 KiB pages.
	h.WantU64("mem.slabinfo.slabs.total_size", 2, 196656*page/21)
	h.WantU64("mem.slabinfo.slabs.total_size", 1, 8*26*page/13) // TCPv6: 16 pages
	h.WantU64("mem.slabinfo.slabs.total_size", 3, 0)            // 9p-fcall-cache: empty
	// fake_cache: 5 slabs, 4 active.
	h.WantU64("mem.slabinfo.slabs.total", 4, 5)
	h.WantU64("mem.slabinfo.slabs.active", 4, 4)
	h.WantU64("mem.slabinfo.slabs.total_size", 4, 40*page/10)
	// odd__name claims no objects per slab: no size rather than a
	// division by zero, its other figures as read.
	h.WantAbsent("mem.slabinfo.slabs.total_size", 5)
	h.WantU64("mem.slabinfo.objects.total", 5, 8)
	// kmalloc-64: the last of its two lines.
	h.WantU64("mem.slabinfo.objects.active", 6, 3500)
	h.WantU64("mem.slabinfo.slabs.total_size", 6, 3500*page/64)
}

// A cache that goes keeps its id from reuse; one that comes gets the next;
// after a restart every cache keeps its id.
func TestSlabinfoStableIDs(t *testing.T) {
	ids := t.TempDir()
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("slabinfo/t0")
	h.Attach(NewSlabinfoCollector, engine.Env{Proc: h.Proc, IDDir: ids})
	h.MustSample(t0)
	h.Use("slabinfo/t1") // dentry gone, new_cache come
	h.MustSample(t1)
	if id := h.hostInstanceID(indomSlab, "new_cache"); id != 7 {
		t.Errorf("new_cache has id %d, want 7", id)
	}
	h.WantAbsent("mem.slabinfo.objects.active", 2)
	h.WantU64("mem.slabinfo.objects.active", 0, 24) // bio-312 moved on

	again := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	again.Use("slabinfo/t0")
	again.Attach(NewSlabinfoCollector, engine.Env{Proc: again.Proc, IDDir: ids})
	again.MustSample(t0)
	if got := again.hostInstances(indomSlab); !reflect.DeepEqual(got, slabinfoWantT0) {
		t.Errorf("ids after a restart\n got %v\nwant %v", got, slabinfoWantT0)
	}
}

// A format other than 2.x, a file with no cache and a missing file fail
// the sample and publish nothing; the collector is still built.
func TestSlabinfoDamaged(t *testing.T) {
	for _, tree := range []string{"slabinfo/v1", "slabinfo/empty", "slabinfo/headonly", "proc-empty"} {
		t.Run(tree, func(t *testing.T) {
			h := newHarness(t, NewSlabinfoCollector, tree)
			if err := h.Sample(t0); err == nil {
				t.Fatal("sample succeeded")
			}
			h.NothingPublished()
		})
	}
}

func TestSlabName(t *testing.T) {
	for in, want := range map[string]string{
		"dentry 1 2":   "dentry 1 2",
		"fake cache 1": "fake_cache 1",
		"a b c 1 x y":  "a_b_c 1 x y", // after the first digit nothing changes
		"odd -name 1":  "odd__name 1",
		"a  b 1":       "a _b 1",
		"ext4 cache 1": "ext4 cache 1", // the 4 ends the search
		"9p-cache 1":   "9p-cache 1",
	} {
		if got := string(slabName([]byte(in))); got != want {
			t.Errorf("slabName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The factory opens the file and the samples read the descriptor it
// keeps: the agent builds its collectors as root and samples as its own
// user, who may not open /proc/slabinfo. Removing the fixture after the
// build stands in for the open that would fail.
func TestSlabinfoOpenedAtBuild(t *testing.T) {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("slabinfo/t0")
	h.Attach(NewSlabinfoCollector, engine.Env{Proc: h.Proc, KeepFiles: true})
	if err := os.Remove(filepath.Join(h.Proc, "slabinfo")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.WantU64("mem.slabinfo.objects.active", 2, 196656)
}
