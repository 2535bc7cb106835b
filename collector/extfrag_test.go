package collector

import (
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// extfragHarness runs the collector on a copy of testdata/maps/extfrag/<tree>/sys.
func extfragHarness(t *testing.T, tree string) (*harness, string) {
	t.Helper()
	sys := t.TempDir()
	replaceTree(t, filepath.Join(mapsTestdata, "extfrag", tree, "sys"), sys)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(NewExtfragCollector, engine.Env{Proc: h.Proc, Sys: sys})
	return h, sys
}

// testdata/maps/extfrag/t0: node 0's Normal zone has shares 0, 0.125, ...
// 0.875, 1, 1, 1 over its 11 orders (sum 6.5), node 1's 0.5, 0.5, 1 in
// its top orders (sum 2); the DMA and DMA32 rows are not counted.
func TestExtfragValues(t *testing.T) {
	h, _ := extfragHarness(t, "t0")
	h.MustSample(t0)
	h.WantFloat("sysfs.kernel.debug.extfrag_unusable", 0, 6.5)
	h.WantFloat("sysfs.kernel.debug.extfrag_unusable", 1, 2)
	in, _ := h.Store.Load().InDom(indomExtfrag)
	for id, name := range map[uint32]string{0: "node0", 1: "node1"} {
		if got, ok := in.Name(id); !ok || got != name {
			t.Errorf("instance %d: %q, want %q", id, got, name)
		}
	}
	if in.Len() != 2 {
		t.Errorf("%d nodes, want 2", in.Len())
	}
}

// Without debugfs (or its file) there are no values and no error; a
// damaged file is an error that names it, and the nodes whose lines read
// keep their values.
func TestExtfragAbsentAndDamaged(t *testing.T) {
	h, sys := extfragHarness(t, "absent")
	h.MustSample(t0)
	if n := h.Published("sysfs.kernel.debug"); n != 0 {
		t.Errorf("%d values without the file", n)
	}
	replaceTree(t, filepath.Join(mapsTestdata, "extfrag", "damaged", "sys"), sys)
	if err := h.Sample(t1); err == nil {
		t.Error("no error for a row without shares and a line that is no row")
	}
	h.WantFloat("sysfs.kernel.debug.extfrag_unusable", 0, 0.375)
}

// A row's shares are read up to the first that is not a number; a node
// keeps its first Normal row; other zones are skipped.
func TestParseExtfrag(t *testing.T) {
	rows, bad := parseExtfrag([]byte("Node 0, zone   Normal 0.250 0.500 x 0.125 \n"+
		"Node 0, zone   Normal 1.000 \nNode 2, zone  Movable 1.000 \nNode 3, zone Normal 0.1 0.2\n"), nil)
	want := []extfragNode{{0, 0.75}, {3, float32(0.1) + float32(0.2)}}
	if bad != 0 || len(rows) != len(want) || rows[0] != want[0] || rows[1] != want[1] {
		t.Errorf("rows %v, bad %d; want %v", rows, bad, want)
	}
	if _, bad := parseExtfrag([]byte("Node x, zone Normal 0.1\nNode 1 zone Normal 0.1\n"), nil); bad != 2 {
		t.Errorf("%d lines not read, want 2", bad)
	}
}
