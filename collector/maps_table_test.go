package collector

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// mapsDescs is the verified pmdalinux descriptor table of the device maps,
// the debugfs fragmentation index and the NUMA bandwidth figure (see
// pmdalinux_test.go for the row format), transcribed from `pminfo -dT`
// against pmdalinux (PCP 6.0.3, kernel 6.18).
var mapsDescs = []pmdalinuxDesc{
	{"hinv.map.dmname", "7.13", "string", "discrete", "none", "60.24"},
	{"hinv.map.mdname", "42.13", "string", "discrete", "none", "60.25"},
	{"hinv.map.scsi", "63.0", "string", "discrete", "none", "60.11"},
	{"sysfs.kernel.debug.extfrag_unusable", "64.1", "float", "instant", "none", "60.19 (extfrag)"},
	{"mem.numa.max_bandwidth", "36.38", "double", "discrete", "Mbyte / sec", "60.19 (numa)"},
}

// mapsTestdata holds this table's fixture trees (testdata/maps/README.md).
var mapsTestdata = filepath.Join(testdataDir, "maps")

// Every metric of mapsDescs is declared by the collector that publishes
// it, with pmdalinux's descriptor, and by no other.
func TestMapsDescriptors(t *testing.T) {
	rows := map[string]pmdalinuxDesc{}
	for _, w := range mapsDescs {
		rows[w.name] = w
	}
	declared := map[string]int{}
	for _, f := range []engine.Factory{NewDiskCollector, NewSCSICollector, NewExtfragCollector, NewNUMACollector} {
		c, err := f(engine.Env{Proc: filepath.Join(mapsTestdata, "disk", "proc"), Sys: filepath.Join(mapsTestdata, "disk", "sys")})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Source().Metrics {
			w, ok := rows[strings.TrimPrefix(d.Name, engine.Prefix)]
			if !ok {
				continue
			}
			declared[w.name]++
			if want := pminfoInDoms[w.indom]; d.InDom != want {
				t.Errorf("%s: indom %d, want %d for pmdalinux's %s", w.name, d.InDom, want, w.indom)
			}
			d.InDom = pminfoInDoms[w.indom] // checked above
			checkDesc(t, d, w)
		}
	}
	for _, w := range mapsDescs {
		if declared[w.name] != 1 {
			t.Errorf("%s: declared %d times, want once", w.name, declared[w.name])
		}
	}
}
