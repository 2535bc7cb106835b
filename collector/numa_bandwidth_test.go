package collector

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// numaBandwidthHarness runs the numa collector on testdata/maps/numa's
// two nodes, with a copy of its pmdas/linux/bandwidth.conf under
// PCP_PMDAS_DIR; it returns the copy's path.
func numaBandwidthHarness(t *testing.T) (*harness, string) {
	t.Helper()
	pmdas := t.TempDir()
	replaceTree(t, filepath.Join(mapsTestdata, "numa", "pmdas"), pmdas)
	t.Setenv("PCP_PMDAS_DIR", pmdas)
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Attach(NewNUMACollector, engine.Env{Proc: h.Proc, Sys: filepath.Join(mapsTestdata, "numa", "sys")})
	return h, filepath.Join(pmdas, "linux", "bandwidth.conf")
}

// The file gives node0 1024 MB/s and node1 2048.5. It is looked at once
// a minute at most and read only when it changed.
func TestNUMAMaxBandwidth(t *testing.T) {
	h, conf := numaBandwidthHarness(t)
	h.MustSample(t0)
	h.WantFloat("mem.numa.max_bandwidth", 0, 1024)
	h.WantFloat("mem.numa.max_bandwidth", 1, 2048.5)
	if err := os.WriteFile(conf, []byte("Version:1.0\nnode0:4096\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0.Add(5 * time.Second)) // not looked at yet
	h.WantFloat("mem.numa.max_bandwidth", 1, 2048.5)
	h.MustSample(t0.Add(bandwidthCheck + time.Second))
	h.WantFloat("mem.numa.max_bandwidth", 0, 4096)
	h.WantAbsent("mem.numa.max_bandwidth", 1)
	h.MustSample(t0.Add(2*bandwidthCheck + 2*time.Second)) // unchanged: not read again
	if reads := h.C.(*numaCollector).bandwidth.reads; reads != 2 {
		t.Errorf("the file was read %d times, want 2 (at start, after the change)", reads)
	}
	os.Remove(conf)
	h.MustSample(t0.Add(3*bandwidthCheck + 3*time.Second))
	if n := len(h.Values("mem.numa.max_bandwidth")); n != 0 {
		t.Errorf("%d values once the file is gone", n)
	}
}

// pmdalinux's rules: a version line first, then "name:figure" lines up to
// the first it cannot read; a node it does not know ends the list; a
// figure of 0 or none is no value; a node's last line wins.
func TestNUMABandwidthRules(t *testing.T) {
	for _, c := range []struct {
		text string
		want map[int]float64
	}{
		{"node0:100\n", nil},              // no version
		{"Version:2.0\nnode0:100\n", nil}, // unknown version
		{"Version: 1.0\n  node0: 100.5MBps\n", map[int]float64{0: 100.5}},
		{"Version:1.0\nnode0:100\nnode1\nnode1:200\n", map[int]float64{0: 100}}, // no ':' ends it
		{"Version:1.0\nnode0:100\nnode7:300\nnode1:200\n", map[int]float64{0: 100}},
		{"Version:1.0\nnode01:100\nnode1:200\n", nil}, // not a node's name
		{"Version:1.0\nnode0:0\nnode1:abc\n", nil},
		{"Version:1.0\nnode0:100\n# a comment\nnode0:300\n", map[int]float64{0: 300}},
	} {
		w := numaBandwidth{entries: parseBandwidth([]byte(c.text)), checked: t0}
		got := map[int]float64{}
		for node, mbps := range w.values([]int{0, 1}) {
			got[node] = mbps
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
		for node, mbps := range c.want {
			if got[node] != mbps {
				t.Errorf("%q: node%d %v, want %v", c.text, node, got[node], mbps)
			}
		}
	}
}
