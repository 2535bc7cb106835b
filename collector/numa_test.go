package collector

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixtures sys-t0, sys-t1: node0 (MemTotal 4000000 kB, MemFree 3000000,
// MemUsed 1000000, 4 huge pages) and node1 without memory (all zeros);
// between them node0's numa_hit and local_node count 200 more.
// proc-t0/meminfo's Hugepagesize is 2048 kB.
func TestNUMAValues(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewNUMACollector, engine.Env{Proc: h.Proc, Sys: sys})
	h.MustSample(t0)
	h.WantU64("mem.numa.util.total", 0, 4000000)
	h.WantU64("mem.numa.util.free", 0, 3000000)
	h.WantU64("mem.numa.util.used", 0, 1000000)
	h.WantU64("mem.numa.util.hugepagesTotal", 0, 4)
	h.WantU64("mem.numa.util.hugepagesTotalBytes", 0, 4*2048*1024)
	h.WantU64("mem.numa.util.total", 1, 0) // a node without memory
	h.WantU64("mem.numa.alloc.hit", 1, 0)
	h.WantAbsent("mem.numa.util.highTotal", 0) // 64-bit kernels print no HighTotal
	replaceTree(t, filepath.Join(testdataDir, "sys-t1"), sys)
	h.MustSample(t1)
	h.WantFloat("rate.mem.numa.alloc.hit", 0, 100)
	h.WantFloat("rate.mem.numa.alloc.local_node", 0, 100)
	if got := len(h.hostInstances(indomNUMA)); got != 2 {
		t.Errorf("%d nodes, want 2", got)
	}
}

// A kernel without NUMA information has no node directory: pmdalinux
// lists node 0 all the same, online, with no memory figures. The sample
// says which files failed and publishes the rest.
func TestNUMAMissing(t *testing.T) {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewNUMACollector, engine.Env{Proc: h.Proc, Sys: t.TempDir()})
	var partial *engine.PartialError
	if err := h.Sample(t0); !errors.As(err, &partial) {
		t.Errorf("sample: %v, want a partial error naming node0's files", err)
	}
	h.WantAbsent("mem.numa.util.total", 0)
	h.WantU64("hinv.node.online", 0, 1)
	if got := h.hostInstances(indomNUMA); len(got) != 1 || got[0].Name != "node0" {
		t.Errorf("nodes %v, want node0", got)
	}
}

// The nodes are the node directories, as pmdalinux lists them, with or
// without the kernel's online list (fixture trees often have only each
// node's meminfo and numastat).
func TestNUMANodesAreTheDirectories(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	os.Remove(filepath.Join(sys, "devices", "system", "node", "online"))
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewNUMACollector, engine.Env{Proc: h.Proc, Sys: sys})
	h.MustSample(t0)
	h.WantU64("mem.numa.util.total", 0, 4000000)
	h.WantU64("hinv.node.online", 1, 1)
	if got := len(h.hostInstances(indomNUMA)); got != 2 {
		t.Errorf("%d nodes, want 2", got)
	}
}
