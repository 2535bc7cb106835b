package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixtures sys-t0, sys-t1 kernel/mm/ksm: run 1, full_scans 7 -> 9.
func TestKSMValues(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewKSMCollector, engine.Env{Proc: h.Proc, Sys: sys})
	h.MustSample(t0)
	h.WantU64("mem.ksm.run_state", cache.InstNone, 1)
	h.WantU64("mem.ksm.full_scans", cache.InstNone, 7)
	h.WantU64("mem.ksm.pages_to_scan", cache.InstNone, 100)
	// A kernel without KSM: nothing, and an error.
	os.RemoveAll(filepath.Join(sys, "kernel"))
	if err := h.Sample(t1); err == nil {
		t.Error("no error without /sys/kernel/mm/ksm")
	}
}
