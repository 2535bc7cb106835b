package collector

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// wwidInst returns the instance id of a world-wide id, failing if absent.
func (f *diskFixture) wwidInst(id string) uint32 {
	f.T.Helper()
	in, ok := f.Store.Load().InDom(indomWWID)
	if !ok {
		f.T.Fatal("no wwid domain")
	}
	inst, ok := in.Lookup(id)
	if !ok {
		f.T.Fatalf("wwid %s not listed in %v", id, in.All())
	}
	return inst
}

// testdata/disk t0 and t1: sda has the SCSI id naa.5000c500a1b2c3d4,
// nvme0n1 the NVMe id eui.0025388b91b2c3d4, vda none.
func TestDiskWWIDSinglePaths(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	sda := f.wwidInst("35000c500a1b2c3d4") // "naa." is designator type 3
	nvme := f.wwidInst("20025388b91b2c3d4")
	f.WantU64("disk.wwid.read", sda, 10000)
	f.WantU64("disk.wwid.read", nvme, 50000)
	if v, ok := f.Value("disk.wwid.scsi_paths", sda); !ok || v.Str != "sda" {
		t.Errorf("scsi_paths = %q, want sda", v.Str)
	}
	in, _ := f.Store.Load().InDom(indomWWID)
	if in.Len() != 2 {
		t.Errorf("%d wwids, want 2 (vda has none)", in.Len())
	}
	f.hostWantString("hinv.map.scsi_id", diskSda, "35000c500a1b2c3d4")
	f.hostWantString("hinv.map.scsi_id", diskVda, "unknown")
	f.load("t1")
	f.MustSample(t1)
	f.WantFloat("rate.disk.wwid.read", sda, 100) // as disk.dev's sda
	f.WantFloat("disk.wwid.util", sda, f.Float("disk.dev.util", diskSda))
}

// testdata/disk/multipath is t1 with sdb, a second path to sda's LUN: the
// wwid sums both, lists both paths, and sums the paths' capacities, as
// pmdalinux does (its help: "aggregated for all scsi paths").
func TestDiskWWIDMultipath(t *testing.T) {
	f := newDiskFixture(t, "multipath", engine.Env{})
	f.MustSample(t1)
	lun := f.wwidInst("35000c500a1b2c3d4")
	f.WantU64("disk.wwid.read", lun, 10200+300)
	f.WantU64("disk.wwid.write_bytes", lun, 406400/2+1600/2)
	f.WantU64("disk.wwid.inflight", lun, 1+1)
	f.WantU64("disk.wwid.capacity", lun, sectorsKB(t, "multipath", "sda")+sectorsKB(t, "multipath", "sdb"))
	if v, ok := f.Value("disk.wwid.scsi_paths", lun); !ok || v.Str != "sda sdb" {
		t.Errorf("scsi_paths = %q, want \"sda sdb\"", v.Str)
	}
	if v, ok := f.Value("disk.wwid.scheduler", lun); !ok || v.Str == "" {
		t.Errorf("no scheduler for the LUN")
	}
	// Without sdb's line the LUN has one path again; the sum went back.
	f.load("t1")
	f.MustSample(t1.Add(2 * time.Second))
	f.WantU64("disk.wwid.read", lun, 10200)
	f.WantAbsent("rate.disk.wwid.read", lun)
}

// sectorsKB is a fixture disk's sysfs size, in Kbyte.
func sectorsKB(t *testing.T, fixture, disk string) uint64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../testdata/disk", fixture, "sys/block", disk, "size"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n == 0 {
		t.Fatalf("%s's size %q: %v", disk, data, err)
	}
	return n / 2
}
