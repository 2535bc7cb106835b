package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: proc-t0/buddyinfo from the development machine (node 0: DMA,
// DMA32, Normal, 11 orders each); proc-t1 adds a node 1 with a Normal
// zone, as a second NUMA node coming online would.
func TestBuddyinfoValues(t *testing.T) {
	h := newHarness(t, NewBuddyinfoCollector, "proc-t0")
	h.MustSample(t0)
	kb := uint64(os.Getpagesize() / 1024)
	id := func(name string) uint32 { return h.hostInstanceID(indomBuddy, name) }
	h.WantU64("mem.buddyinfo.pages", id("DMA::order10::node0"), 3)
	h.WantU64("mem.buddyinfo.total", id("DMA::order10::node0"), 3*1024*kb)
	h.WantU64("mem.buddyinfo.pages", id("Normal::order0::node0"), 1249)
	if n := len(h.hostInstances(indomBuddy)); n != 33 {
		t.Errorf("%d instances, want 3 zones x 11 orders", n)
	}
	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantU64("mem.buddyinfo.pages", id("Normal::order1::node1"), 200)
	h.WantU64("mem.buddyinfo.total", id("Normal::order1::node1"), 200*2*kb)
	// pmdalinux's labels, derived from the name.
	for _, d := range h.C.Source().InDoms {
		got := map[string]string{}
		for _, l := range d.InstanceLabels(cache.Instance{Name: "Normal::order1::node1"}) {
			got[l.Name] = l.Value
		}
		if got["zone"] != `"Normal"` || got["order"] != "1" || got["numa_node"] != "1" {
			t.Errorf("labels %v", got)
		}
	}
}

// A line of another shape is counted as malformed; a file with none left
// fails the sample.
func TestBuddyinfoMalformed(t *testing.T) {
	h := newHarness(t, NewBuddyinfoCollector, "proc-t0")
	os.WriteFile(h.Proc+"/buddyinfo", []byte("Node 0 zone DMA x\n"), 0o644)
	if err := h.Sample(t0); err == nil {
		t.Error("a malformed buddyinfo is accepted")
	}
}

// pmdalinux counts the orders once, from the first line's words, and a
// line that lost the kernel's trailing blank loses its last order there:
// the stand-in publishes the orders pmdalinux does.
func TestBuddyinfoOrdersAsPmdalinux(t *testing.T) {
	for text, want := range map[string]int{
		"Node 0, zone      DMA      3      1      2      2      2      1      0      0      1      1      3 \n": 11,
		"Node 0, zone      DMA      3      1      2      2      2      1      0      0      1      1      3\n":  10,
		"Node 0, zone   Normal      1      2 \nNode 0, zone Movable 1 2 3 4 5\n":                                2,
		"": 0,
	} {
		if got := pmdalinuxOrders([]byte(text)); got != want {
			t.Errorf("pmdalinuxOrders(%q) = %d, want %d", text, got, want)
		}
	}
	h := newHarness(t, NewBuddyinfoCollector, "proc-t0")
	os.WriteFile(filepath.Join(h.Proc, "buddyinfo"), []byte(
		"Node 0, zone      DMA      3      1      2      2      2      1      0      0      1      1      3\n"+
			"Node 0, zone   Normal   1249    100     50     20     10      5      2      1      0      0      0\n"), 0o644)
	h.MustSample(t0)
	if n := len(h.hostInstances(indomBuddy)); n != 20 {
		t.Errorf("%d instances, want 2 zones x 10 orders, pmdalinux's", n)
	}
	for _, in := range h.hostInstances(indomBuddy) {
		if strings.Contains(in.Name, "order10") {
			t.Errorf("instance %s, an order pmdalinux leaves out", in.Name)
		}
	}
	h.WantU64("mem.buddyinfo.pages", h.hostInstanceID(indomBuddy, "DMA::order9::node0"), 1)
}
