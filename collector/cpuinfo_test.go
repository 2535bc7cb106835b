package collector

import (
	"os"
	"path/filepath"
	"testing"
)

// Fixtures: proc-t0/cpuinfo is a copy of a 2-CPU AMD EPYC guest's.
func TestCPUInfoValues(t *testing.T) {
	h := newHarness(t, NewCPUInfoCollector, "proc-t0")
	h.MustSample(t0)
	for cpu := uint32(0); cpu < 2; cpu++ {
		if got := h.MustValue("hinv.cpu.vendor", cpu).Str; got != "AuthenticAMD" {
			t.Errorf("hinv.cpu.vendor[%d] = %q", cpu, got)
		}
		if got := h.MustValue("hinv.cpu.model_name", cpu).Str; got != "AMD EPYC" {
			t.Errorf("hinv.cpu.model_name[%d] = %q", cpu, got)
		}
		h.WantU64("hinv.cpu.cache", cpu, 1024)
		h.WantU64("hinv.cpu.cache_alignment", cpu, 64)
		if got := h.MustValue("hinv.cpu.clock", cpu).Float(); got < 2596 || got > 2597 {
			t.Errorf("hinv.cpu.clock[%d] = %v", cpu, got)
		}
	}
	if got := len(h.hostInstances(indomCPUInfo)); got != 2 {
		t.Errorf("%d CPUs, want 2", got)
	}
	os.WriteFile(filepath.Join(h.Proc, "cpuinfo"), []byte("nothing here\n"), 0o644)
	if err := h.Sample(t1); err == nil {
		t.Error("a cpuinfo listing no processor was taken")
	}
}
