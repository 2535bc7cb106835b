package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// newMiscSysHarness runs a collector on a copy of testdata/<tree> as /sys.
func newMiscSysHarness(t *testing.T, f engine.Factory, tree string) (*harness, string) {
	t.Helper()
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, tree), sys)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(f, engine.Env{Proc: h.Proc, Sys: sys})
	return h, sys
}

// instanceNames is the names of an instance domain, by id.
func instanceNames(h *harness, id cache.InDomID) map[uint32]string {
	h.T.Helper()
	in, ok := h.Store.Load().InDom(id)
	if !ok {
		h.T.Fatalf("indom %d: no instances", id)
	}
	names := map[uint32]string{}
	for _, x := range in.All() {
		names[x.ID] = x.Name
	}
	return names
}

// Fixture testdata/misc/sys/class/fc_host (see its README).
func TestFCHostValues(t *testing.T) {
	h, _ := newMiscSysHarness(t, NewFCHostCollector, "misc/sys")
	if err := h.Sample(t0); err == nil {
		t.Error("host1's damaged tx_frames is not reported")
	}
	names := instanceNames(h, indomFCHost)
	if len(names) != 2 || names[0] != "host0" || names[1] != "host1" {
		t.Fatalf("instances %v, want host0 as 0 and host1 as 1", names)
	}
	h.WantU64("hinv.nfchost", cache.InstNone, 2)
	h.WantU64("fchost.in.frames", 0, 0x10)
	h.WantU64("fchost.out.frames", 0, 0x20)
	h.WantU64("fchost.in.bytes", 0, 0x100*4)
	h.WantU64("fchost.out.bytes", 0, 0x200*4)
	h.WantU64("fchost.lip_count", 0, 1)
	h.WantU64("fchost.nos_count", 0, 2)
	h.WantU64("fchost.error_frames", 0, 3)
	h.WantU64("fchost.dumped_frames", 0, 0) // all ones: not kept by the driver
	h.WantU64("fchost.in.frames", 1, 5)
	h.WantAbsent("fchost.out.frames", 1)
	h.WantAbsent("fchost.lip_count", 1)
}

// A host without fibre channel has no fc_host class: a count of 0, no
// instances and no error, as pmdalinux gives.
func TestFCHostNone(t *testing.T) {
	h, sys := newMiscSysHarness(t, NewFCHostCollector, "misc/sys")
	if err := os.RemoveAll(filepath.Join(sys, "class", "fc_host")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.WantU64("hinv.nfchost", cache.InstNone, 0)
	if n := len(instanceNames(h, indomFCHost)); n != 0 {
		t.Errorf("%d instances without fc_host", n)
	}
}

// A class that is a file, not a directory, is an error, not a crash.
func TestFCHostClassNotADirectory(t *testing.T) {
	h, sys := newMiscSysHarness(t, NewFCHostCollector, "misc/sys")
	dir := filepath.Join(sys, "class", "fc_host")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Sample(t0); err == nil {
		t.Error("no error for a class that is a file")
	}
	h.WantAbsent("hinv.nfchost", cache.InstNone)
}
