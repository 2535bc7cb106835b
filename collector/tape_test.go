package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/misc/sys/class/scsi_tape (see its README).
func TestTapeValues(t *testing.T) {
	h, _ := newMiscSysHarness(t, NewTapeCollector, "misc/sys")
	h.MustSample(t0)
	names := instanceNames(h, indomTape)
	if len(names) != 2 || names[0] != "st0" || names[1] != "st1" {
		t.Fatalf("instances %v, want st0 as 0 and st1 as 1 (not nst0, st0a)", names)
	}
	h.WantU64("hinv.ntape", cache.InstNone, 2)
	for i, attr := range []string{"in_flight", "io_ns", "other_cnt", "read_byte_cnt", "read_cnt",
		"read_ns", "resid_cnt", "write_byte_cnt", "write_cnt", "write_ns"} {
		h.WantU64("tape.dev."+attr, 0, uint64(i+1))
	}
	h.WantU64("tape.dev.write_ns", 1, 1000)
	h.WantAbsent("tape.dev.resid_cnt", 1) // st1 has no such file
}

func TestIsTapeDrive(t *testing.T) {
	for dev, want := range map[string]bool{"st0": true, "st12": true, "nst0": false, "st0a": false, "st": false, "st0l": false} {
		if got := isTapeDrive(dev); got != want {
			t.Errorf("isTapeDrive(%q) = %v", dev, got)
		}
	}
}
