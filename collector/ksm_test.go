package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixtures sys-t0, sys-t1 kernel/mm/ksm: run 1, full_scans 7 -> 9.
func TestKSMValues(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := &harness{t: t, proc: t.TempDir()}
	h.use("proc-t0")
	h.attach(NewKSMCollector, engine.Env{Proc: h.proc, Sys: sys})
	h.mustSample(t0)
	h.wantU64("mem.ksm.run_state", cache.InstNone, 1)
	h.wantU64("mem.ksm.full_scans", cache.InstNone, 7)
	h.wantU64("mem.ksm.pages_to_scan", cache.InstNone, 100)
	// A kernel without KSM: nothing, and an error.
	os.RemoveAll(filepath.Join(sys, "kernel"))
	if err := h.sample(t1); err == nil {
		t.Error("no error without /sys/kernel/mm/ksm")
	}
}
