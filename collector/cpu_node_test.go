package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Two NUMA nodes of one CPU each (proc-t0/stat: cpu0 user 2500 ticks,
// cpu1 3400): each node's times are its CPUs'.
func TestPerNodeTimes(t *testing.T) {
	sys := t.TempDir()
	for node, cpus := range map[string]string{"node0": "0\n", "node1": "1\n"} {
		dir := filepath.Join(sys, "devices", "system", "node", node)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "cpulist"), []byte(cpus), 0o644)
	}
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.attach(NewCPUCollector, engine.Env{Proc: h.proc, Sys: sys})
	h.mustSample(t0)
	h.wantU64("hinv.nnode", cache.InstNone, 2)
	h.wantU64("kernel.pernode.cpu.user", 0, 25000)
	h.wantU64("kernel.pernode.cpu.user", 1, 34000)
	h.wantU64("kernel.pernode.cpu.guest", 1, 400)
	if got := len(h.hostInstances(indomNode)); got != 2 {
		t.Errorf("%d nodes, want 2", got)
	}
}

// Without NUMA information there are no nodes and no per-node values.
func TestPerNodeWithoutSys(t *testing.T) {
	h := newHarness(t, NewCPUCollector, "proc-t0")
	h.mustSample(t0)
	h.wantU64("hinv.nnode", cache.InstNone, 0)
	h.wantAbsent("kernel.pernode.cpu.user", 0)
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
