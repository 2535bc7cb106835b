package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Standing in for pmdalinux, the per-CPU interrupts and softirqs take
// pmdalinux's ids from its id files ("24::cpu0" as 60.40 numbers it)
// instead of the source's id and the CPU number; new names get ids past
// the file's.
func TestPerCPUInterruptIDsFollowPmdalinuxFiles(t *testing.T) {
	ids := t.TempDir()
	os.WriteFile(filepath.Join(ids, "60.40"), []byte("2 0 2147483647\n7 1795769698 24::cpu1\n"), 0o644)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewInterruptsCollector, engine.Env{Proc: h.Proc, IDDir: ids, PMDADomain: 60,
		PMDAFiles: map[cache.InDomID]uint32{indomIRQCPU: 40, indomSoftirqCPU: 41}})
	h.MustSample(t0)
	got := map[string]uint32{}
	for _, x := range h.hostInstances(indomIRQCPU) {
		got[x.Name] = x.ID
	}
	if id, ok := got["24::cpu1"]; !ok || id != 7 {
		t.Errorf("24::cpu1 has id %d (%v), pmdalinux's 7", id, ok)
	}
	if id, ok := got["24::cpu0"]; !ok || id <= 7 || id >= 1<<13 {
		t.Errorf("24::cpu0, new to the file, has id %d (%v); want one past 7, from the file", id, ok)
	}
	for _, x := range h.hostInstances(indomSoftirqCPU) {
		if x.ID >= 1<<13 {
			t.Errorf("softirq %s has the computed id %d, not one from 60.41", x.Name, x.ID)
		}
	}
	if data, err := os.ReadFile(filepath.Join(ids, "60.41")); err != nil || len(data) == 0 {
		t.Errorf("60.41 not written: %v", err)
	}
}
