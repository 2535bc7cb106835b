package collector

import (
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// scsiHarness runs the SCSI collector on a copy of testdata/maps/scsi/<tree>/sys.
func scsiHarness(t *testing.T, tree string) (*harness, string) {
	t.Helper()
	sys := t.TempDir()
	replaceTree(t, filepath.Join(mapsTestdata, "scsi", tree, "sys"), sys)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(NewSCSICollector, engine.Env{Proc: h.Proc, Sys: sys})
	return h, sys
}

// testdata/maps/scsi/t0: disks 0:0:0:0 (sda), 2:0:0:0 (a zoned disk, sdb)
// and 10:0:0:0 (sdc), a CD-ROM 0:0:1:0 (sr0), and a tape and an
// enclosure without block devices (not listed, as pmdalinux lists none);
// hosts and targets are not devices. Ids follow the addresses, so
// 10:0:0:0 comes after 2:0:0:0. t1: the CD-ROM gone, 4:0:0:0 with a type
// that is not a number and 5:0:0:0 with none (left out and reported).
func TestSCSIMap(t *testing.T) {
	h, sys := scsiHarness(t, "t0")
	h.MustSample(t0)
	wantMap(t, h, indomSCSI, "hinv.map.scsi", []mapWant{
		{0, "scsi0:0:0:0_Direct-Access", "sda"}, {1, "scsi0:0:1:0_CD-ROM", "sr0"},
		{2, "scsi2:0:0:0_Direct-Access-ZBC", "sdb"}, {3, "scsi10:0:0:0_Direct-Access", "sdc"}})
	replaceTree(t, filepath.Join(mapsTestdata, "scsi", "t1", "sys"), sys)
	if err := h.Sample(t1); err == nil {
		t.Error("no error for two devices without a type")
	}
	wantMap(t, h, indomSCSI, "hinv.map.scsi", []mapWant{
		{0, "scsi0:0:0:0_Direct-Access", "sda"},
		{2, "scsi2:0:0:0_Direct-Access-ZBC", "sdb"}, {3, "scsi10:0:0:0_Direct-Access", "sdc"}})
}

// A host without a SCSI bus has no devices and no error.
func TestSCSIMapNoBus(t *testing.T) {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(NewSCSICollector, engine.Env{Proc: h.Proc, Sys: t.TempDir()})
	h.MustSample(t0)
	wantMap(t, h, indomSCSI, "hinv.map.scsi", nil)
}

// The words /proc/scsi/scsi prints for each type number, as pmdalinux
// reads them.
func TestSCSITypeWord(t *testing.T) {
	for typ, want := range map[uint64]string{0: "Direct-Access", 1: "Sequential-Access", 5: "CD-ROM", 7: "Optical",
		8: "Medium", 12: "RAID", 13: "Enclosure", 14: "Direct-Access-RBC", 17: "Object", 18: "Automation/Drive",
		20: "Direct-Access-ZBC", 21: "Unknown", 0x1e: "Well-known", 0x1f: "No", 99: "Unknown"} {
		if got := scsiTypeWord(typ); got != want {
			t.Errorf("type %d: %q, want %q", typ, got, want)
		}
	}
}

func TestParseSCSIAddr(t *testing.T) {
	if a, ok := parseSCSIAddr("10:0:3:1073758208"); !ok || a != [4]uint64{10, 0, 3, 1073758208} {
		t.Errorf("10:0:3:1073758208: %v %v", a, ok)
	}
	for _, s := range []string{"host0", "target0:0:0", "0:0:0:0:0", "0:0:x:0", "0:0::0", "-1:0:0:0"} {
		if _, ok := parseSCSIAddr(s); ok {
			t.Errorf("%q read as a device address", s)
		}
	}
}
