package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// nodeTree writes a /sys root with the node directories given, each
// with the cpuN entries pmdalinux reads its CPUs from (as the kernel's
// links), and a cpulist that says otherwise, which pmdalinux ignores.
func nodeTree(t *testing.T, nodes map[string][]string) string {
	t.Helper()
	sys := t.TempDir()
	for node, cpus := range nodes {
		dir := filepath.Join(sys, "devices", "system", "node", node)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, cpu := range cpus {
			if err := os.Mkdir(filepath.Join(dir, cpu), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(dir, "cpulist"), []byte("0-63\n"), 0o644)
	}
	os.WriteFile(filepath.Join(sys, "devices", "system", "node", "online"), []byte("0-63\n"), 0o644)
	return sys
}

// Two NUMA nodes of one CPU each (proc-t0/stat: cpu0 user 2500 ticks,
// cpu1 3400): each node's times are its CPUs'.
func TestPerNodeTimes(t *testing.T) {
	sys := nodeTree(t, map[string][]string{"node0": {"cpu0"}, "node1": {"cpu1"}})
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.Attach(NewCPUCollector, engine.Env{Proc: h.Proc, Sys: sys})
	h.MustSample(t0)
	h.WantU64("hinv.nnode", cache.InstNone, 2)
	h.WantU64("kernel.pernode.cpu.user", 0, 25000)
	h.WantU64("kernel.pernode.cpu.user", 1, 34000)
	h.WantU64("kernel.pernode.cpu.guest", 1, 400)
	if got := len(h.hostInstances(indomNode)); got != 2 {
		t.Errorf("%d nodes, want 2", got)
	}
}

// Without a node directory, pmdalinux has one node, 0, of every CPU.
func TestPerNodeWithoutSys(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.Attach(NewCPUCollector, engine.Env{Proc: h.Proc, Sys: t.TempDir()})
	h.MustSample(t0)
	h.WantU64("hinv.nnode", cache.InstNone, 1)
	h.WantU64("kernel.pernode.cpu.user", 0, 59000)
	if got := len(h.hostInstances(indomNode)); got != 1 {
		t.Errorf("%d nodes, want node0", got)
	}
}

// A node directory with no cpuN entry is a node of no CPU, with zero
// times, as pmdalinux lists it (a fixture tree with only each node's
// meminfo and numastat); entries that only start like nodes or CPUs
// count by their number, as sscanf reads them.
func TestPerNodeWithoutCPUEntries(t *testing.T) {
	sys := nodeTree(t, map[string][]string{"node0": nil, "node2": {"cpu0", "cpu1"}, "nodeX": nil})
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.Attach(NewCPUCollector, engine.Env{Proc: h.Proc, Sys: sys})
	h.MustSample(t0)
	h.WantU64("hinv.nnode", cache.InstNone, 2)
	h.WantU64("kernel.pernode.cpu.user", 0, 0)
	h.WantU64("kernel.pernode.cpu.user", 2, 59000)
	for name, want := range map[string]int{"node12": 12, "node3abc": 3, "cpulist": -1, "cpu": -1, "node": -1, "cpu7": 7} {
		prefix := "cpu"
		if name[0] == 'n' {
			prefix = "node"
		}
		got, ok := numberAfter(name, prefix)
		if (want < 0) == ok || ok && got != want {
			t.Errorf("numberAfter(%q) = %d, %v", name, got, ok)
		}
	}
}

func TestParseCPUList(t *testing.T) {
	for in, want := range map[string]int{"0-3,8,10-11\n": 7, "0\n": 1, "\n": 0} {
		got, ok := kernel.ParseCPUList([]byte(in))
		if !ok || len(got) != want {
			t.Errorf("ParseCPUList(%q) = %v, %v", in, got, ok)
		}
	}
	for _, in := range []string{"3-1", "x", "1,,2", "-1"} {
		if _, ok := kernel.ParseCPUList([]byte(in)); ok {
			t.Errorf("ParseCPUList(%q) accepted", in)
		}
	}
}
