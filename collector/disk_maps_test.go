package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// mapWant is one instance of a map metric: its id, name and value.
type mapWant struct {
	id          uint32
	name, value string
}

// wantMap checks that indom lists exactly want, each with its value of
// metric name.
func wantMap(t *testing.T, h *harness, indom cache.InDomID, name string, want []mapWant) {
	t.Helper()
	in, ok := h.Store.Load().InDom(indom)
	if !ok || in.Len() != len(want) {
		t.Fatalf("%s: domain %d lists %v, want %d instances", name, indom, in.All(), len(want))
	}
	for _, w := range want {
		if id, ok := in.Lookup(w.name); !ok || id != w.id {
			t.Errorf("%s: instance %q has id %d (listed %v), want %d", name, w.name, id, ok, w.id)
		}
		if v, ok := h.Value(name, w.id); !ok || v.Str != w.value {
			t.Errorf("%s[%q] = %q (%v), want %q", name, w.name, v.Str, ok, w.value)
		}
	}
	if n := len(h.Values(name)); n != len(want) {
		t.Errorf("%s: %d values, want %d", name, n, len(want))
	}
}

// testdata/maps/disk: dm-0 and dm-1 mapped as vg0-root and vg0-swap,
// dm-2 without a mapped name (left out, as pmdalinux leaves it), arrays
// md127 and md0; ids in the order of /proc/diskstats.
func TestDiskMapNames(t *testing.T) {
	f := newDiskFixtureIn(t, mapsTestdata, "disk", engine.Env{})
	f.MustSample(t0)
	wantMap(t, f.harness, indomDM, "hinv.map.dmname", []mapWant{{0, "vg0-root", "dm-0"}, {1, "vg0-swap", "dm-1"}})
	wantMap(t, f.harness, indomMD, "hinv.map.mdname", []mapWant{{0, "md127", "md127"}, {1, "md0", "md0"}})
	// A sample whose devices fit the last placement publishes them again.
	f.MustSample(t1)
	wantMap(t, f.harness, indomDM, "hinv.map.dmname", []mapWant{{0, "vg0-root", "dm-0"}, {1, "vg0-swap", "dm-1"}})
	f.WantAbsent("hinv.map.dmname", 2)
}

// A tree without dm or md devices (testdata/disk/short) has no maps.
func TestDiskMapNamesNone(t *testing.T) {
	f := newDiskFixture(t, "short", engine.Env{})
	f.MustSample(t0)
	wantMap(t, f.harness, indomDM, "hinv.map.dmname", nil)
	wantMap(t, f.harness, indomMD, "hinv.map.mdname", nil)
}
