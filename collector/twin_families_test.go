package collector

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// mapsTestdata holds the device maps' fixture trees (testdata/maps/README.md).
var mapsTestdata = filepath.Join(testdataDir, "maps")

// The device maps, the debugfs fragmentation index and the NUMA bandwidth
// figure are each declared by the collector that publishes them, with
// pmdalinux's descriptor, and by no other.
func TestMapsDescriptors(t *testing.T) {
	names := []string{"hinv.map.dmname", "hinv.map.mdname", "hinv.map.scsi",
		"sysfs.kernel.debug.extfrag_unusable", "mem.numa.max_bandwidth"}
	twins := linuxTwins()
	declared := map[string]int{}
	for _, f := range []engine.Factory{NewDiskCollector, NewSCSICollector, NewExtfragCollector, NewNUMACollector} {
		c, err := f(engine.Env{Proc: filepath.Join(mapsTestdata, "disk", "proc"),
			Sys: filepath.Join(mapsTestdata, "disk", "sys")})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Source().Metrics {
			name := strings.TrimPrefix(d.Name, engine.Prefix)
			if !contains(names, name) {
				continue
			}
			declared[name]++
			checkTwin(t, d, twins[name])
		}
	}
	for _, name := range names {
		if declared[name] != 1 {
			t.Errorf("%s: declared %d times, want once", name, declared[name])
		}
	}
}

// miscFactories are the collectors TestMiscDescriptors checks, built on
// the older kernel's tree.
var miscFactories = []engine.Factory{NewVMStatCollector, NewFCHostCollector, NewTapeCollector,
	NewAgentCollector, NewSysfsCollector}

// Every metric of these collectors has pmdalinux's descriptor, and their
// families are whole: every fchost, tape and vmstat metric of pmdalinux's
// is declared.
func TestMiscDescriptors(t *testing.T) {
	env := engine.Env{Proc: filepath.Join(testdataDir, "misc", "older", "proc"),
		Sys: filepath.Join(testdataDir, "misc", "sys")}
	twins := linuxTwins()
	var descs []cache.Desc
	for _, f := range miscFactories {
		c, err := f(env)
		if err != nil {
			t.Fatal(err)
		}
		descs = append(descs, c.Source().Metrics...)
	}
	for _, d := range descs {
		name := strings.TrimPrefix(d.Name, engine.Prefix)
		if m, ok := twins[name]; ok {
			checkTwin(t, d, m)
		} else {
			t.Errorf("%s: pmdalinux has no such metric", name)
		}
	}
	for _, family := range []string{"fchost.", "tape.dev.", "mem.vmstat.", "hinv.nfchost", "hinv.ntape",
		"pmda.uname", "pmda.version", "sysfs.kernel.uevent_seqnum"} {
		checkTwinFamily(t, descs, family)
	}
}

// The slab, tmpfs and serial-line metrics are pmdalinux's, all of them,
// with its descriptors.
func TestSlabinfoDescriptors(t *testing.T) {
	h := newHarness(t, NewSlabinfoCollector, "slabinfo/t0")
	checkTwinFamily(t, h.C.Source().Metrics, "mem.slabinfo.")
}

func TestTmpfsDescriptors(t *testing.T) {
	h, _ := newTmpfsHarness(t, "t0", engine.Env{}, newTmpfsFake(), time.Second)
	checkTwinFamily(t, h.C.Source().Metrics, "tmpfs.")
}

func TestTTYDescriptors(t *testing.T) {
	h := newHarness(t, NewTTYCollector, "tty/t0")
	checkTwinFamily(t, h.C.Source().Metrics, "tty.serial.")
}
