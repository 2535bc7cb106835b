package collector

import (
	"os"
	"path/filepath"
	"testing"
)

// Fixtures proc-t0, proc-t1 zoneinfo: this machine's (one node; DMA,
// DMA32 and Normal populated, Movable and Device not), with Normal's pages
// free 400000 -> 399000 and numa_hit 1000000 -> 1000500, and the node's
// nr_dirtied 3000000 (under DMA's "per-node stats").
func TestZoneinfoValues(t *testing.T) {
	h := newHarness(t, NewZoneinfoCollector, "proc-t0")
	h.MustSample(t0)
	kb := uint64(os.Getpagesize() / 1024)
	id := func(name string) uint32 { return h.hostInstanceID(indomZone, name) }
	h.WantU64("mem.zoneinfo.free", id("Normal::node0"), 400000*kb)
	h.WantU64("mem.zoneinfo.numa_hit", id("Normal::node0"), 1000000*kb) // pages, as pmdalinux scales them
	h.WantU64("mem.zoneinfo.nr_dirtied", id("node0"), 3000000*kb)
	h.WantAbsent("mem.zoneinfo.nr_dirtied", id("DMA::node0")) // node-wide, not the first zone's
	h.WantU64("mem.zoneinfo.present", id("DMA::node0"), 3998*kb)
	h.WantAbsent("mem.zoneinfo.scanned", id("DMA::node0")) // not printed by this kernel
	// pmdalinux's name for the kernel's workingset_activate_file.
	h.WantU64("mem.zoneinfo.workingset_active_file", id("node0"), 978153*kb)
	names := map[string]bool{}
	for _, x := range h.hostInstances(indomZone) {
		names[x.Name] = true
	}
	if len(names) != 4 || names["Movable::node0"] || !names["DMA32::node0"] {
		t.Errorf("zone instances %v, want node0 and the three populated zones", names)
	}
	prot := h.hostInstanceID(indomZoneProt, "DMA::node0::lowmem_reserved1")
	if got := h.U64("mem.zoneinfo.protection", prot); got == 0 {
		t.Error("DMA's protection against DMA32 allocations is 0")
	}
	if n := len(h.hostInstances(indomZoneProt)); n != 25 {
		t.Errorf("%d protection instances, want 5 zones x 5", n)
	}
	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantU64("mem.zoneinfo.free", id("Normal::node0"), 399000*kb)
}

// A kernel without the file, or a file of another shape, leaves only these
// metrics without values.
func TestZoneinfoMalformed(t *testing.T) {
	h := newHarness(t, NewZoneinfoCollector, "proc-t0")
	os.WriteFile(filepath.Join(h.Proc, "zoneinfo"), []byte("pages free 12\nno node\n"), 0o644)
	if err := h.Sample(t0); err == nil {
		t.Error("a zoneinfo without a Node line is accepted")
	}
	os.Remove(filepath.Join(h.Proc, "zoneinfo"))
	if err := h.Sample(t1); err == nil {
		t.Error("a missing zoneinfo is not reported")
	}
}
