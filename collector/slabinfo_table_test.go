package collector

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// slabinfoDescs is the verified pmdalinux descriptor table of
// mem.slabinfo.* (see pmdalinux_test.go for the row format), transcribed
// from `pminfo -dT` against pmdalinux (PCP 6.0.3, kernel 6.18.44).
var slabinfoDescs = []pmdalinuxDesc{
	{"mem.slabinfo.objects.active", "57.0", "64-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.objects.total", "57.1", "64-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.objects.size", "57.2", "32-bit unsigned int", "instant", "byte", "60.12"},
	{"mem.slabinfo.slabs.active", "57.3", "32-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.slabs.total", "57.4", "32-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.slabs.pages_per_slab", "57.5", "32-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.slabs.objects_per_slab", "57.6", "32-bit unsigned int", "instant", "none", "60.12"},
	{"mem.slabinfo.slabs.total_size", "57.7", "64-bit unsigned int", "instant", "byte", "60.12"},
}

// checkTwinTable checks every pmdalinux twin h's collector declares
// against rows, and that every row is declared; metrics of other
// families (filesys.* beside tmpfs.*) are left to their own tables.
func checkTwinTable(t *testing.T, h *harness, family string, rows []pmdalinuxDesc) {
	t.Helper()
	byName := map[string]pmdalinuxDesc{}
	for _, w := range rows {
		byName[w.name] = w
	}
	declared := map[string]bool{}
	for _, d := range h.c.Source().Metrics {
		name := strings.TrimPrefix(d.Name, engine.Prefix)
		if !strings.HasPrefix(name, family) {
			continue
		}
		w, ok := byName[name]
		if !ok {
			t.Errorf("%s: declared, not in the table", name)
			continue
		}
		declared[name] = true
		checkDesc(t, d, w)
	}
	for _, w := range rows {
		if !declared[w.name] {
			t.Errorf("%s: in the table, not declared", w.name)
		}
	}
}

func TestSlabinfoDescriptors(t *testing.T) {
	h := newHarness(t, NewSlabinfoCollector, "slabinfo/t0")
	checkTwinTable(t, h, "mem.slabinfo.", slabinfoDescs)
}
