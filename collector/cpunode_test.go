package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Each CPU's NUMA node is its nodeN entry in sysfs, 0 without one; every
// node the numa collector lists is online.
func TestCPUNodeAndNodeOnline(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	if err := os.MkdirAll(filepath.Join(sys, "devices", "system", "cpu", "cpu1", "node1"), 0o755); err != nil {
		t.Fatal(err)
	}
	h := newSysHarness(t, sys)
	h.MustSample(t0)
	h.WantU64("hinv.map.cpu_node", 0, 0) // no nodeN entry
	h.WantU64("hinv.map.cpu_node", 1, 1)

	n := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	n.Use("proc-t0")
	n.Attach(NewNUMACollector, engine.Env{Proc: n.Proc, Sys: sys})
	n.MustSample(t0)
	nodes := n.hostInstances(indomNUMA)
	if len(nodes) == 0 {
		t.Fatal("the fixture has no NUMA node")
	}
	for _, x := range nodes {
		n.WantU64("hinv.node.online", x.ID, 1)
	}
}
