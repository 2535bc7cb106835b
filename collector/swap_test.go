package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/host/t0 (t1 where different):
//
//	/proc/swaps  /dev/vdb2  partition  4194300 kB, used 102400 (t1 110000), priority -2
//	             /swapfile  file       1048572 kB, used 0, priority -3
//	/proc/meminfo SwapTotal 5242872 kB (4194300 + 1048572),
//	             SwapFree 5140472 kB (t1 5132872: 5242872 - 110000)
//	/proc/vmstat pswpin 1000 (t1 1200), pswpout 3000 (t1 3600)

var swapWantT0 = []cache.Instance{
	{ID: 0, Name: "/dev/vdb2", Labels: []cache.Label{{Name: "type", Value: `"partition"`}}},
	{ID: 1, Name: "/swapfile", Labels: []cache.Label{{Name: "type", Value: `"file"`}}},
}

// SwapsHeader is /proc/swaps' first line.
const swapsHeader = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

func TestSwapValues(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	h.MustSample(t0)
	const n = cache.InstNone
	h.WantU64("swap.pagesin", n, 1000)
	h.WantU64("swap.pagesout", n, 3000)
	h.WantU64("swap.length", n, 5368700928) // 5242872 kB * 1024
	h.WantU64("swap.used", n, 104857600)    // (5242872 - 5140472) kB * 1024
	h.WantU64("swap.free", n, 5263843328)   // 5140472 kB * 1024

	if got := h.hostInstances(indomSwapdev); !reflect.DeepEqual(got, swapWantT0) {
		t.Errorf("swapdev instances %v, want %v", got, swapWantT0)
	}
	h.WantU64("swapdev.length", 0, 4194300)
	h.WantU64("swapdev.maxswap", 0, 4194300)
	h.WantU64("swapdev.free", 0, 4091900) // 4194300 - 102400
	h.WantU64("swapdev.vlength", 0, 0)
	if p := int64(h.U64("swapdev.priority", 0)); p != -2 {
		t.Errorf("swapdev.priority[0] = %d, want -2", p)
	}
	h.WantU64("swapdev.free", 1, 1048572)
	if p := int64(h.U64("swapdev.priority", 1)); p != -3 {
		t.Errorf("swapdev.priority[1] = %d, want -3", p)
	}
}

func TestSwapRates(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "t1")
	h.MustSample(t1)
	const n = cache.InstNone
	h.WantFloat("rate.swap.pagesin", n, 100)  // (1200 - 1000) / 2 s
	h.WantFloat("rate.swap.pagesout", n, 300) // (3600 - 3000) / 2 s
	h.WantU64("swap.used", n, 112640000)      // 110000 kB * 1024
	h.WantU64("swapdev.free", 0, 4084300)     // 4194300 - 110000
	if r := h.Resets(); r != 0 {
		t.Errorf("Resets() = %d", r)
	}
}

// testdata/host/reset has pswpin 1000 -> 10.
func TestSwapCounterReset(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "reset")
	h.MustSample(t1)
	h.WantAbsent("rate.swap.pagesin", cache.InstNone)
	h.WantFloat("rate.swap.pagesout", cache.InstNone, 0)
	if r := h.Resets(); r != 1 {
		t.Errorf("Resets() = %d, want 1", r)
	}
	useHostTree(h, "t1")
	h.MustSample(t1.Add(2 * time.Second))
	h.WantFloat("rate.swap.pagesin", cache.InstNone, 595) // (1200 - 10) / 2 s
}

// swap.pagesin is 32-bit in pmdalinux: a larger count wraps, and the
// interval across the wrap has no rate.
func TestSwapPagesInWraps(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	vmstat := filepath.Join(h.Proc, "vmstat")
	if err := os.WriteFile(vmstat, []byte("pswpin 4294967290\npswpout 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	h.WantU64("swap.pagesin", cache.InstNone, 4294967290)
	if err := os.WriteFile(vmstat, []byte("pswpin 4294967300\npswpout 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t1)
	h.WantU64("swap.pagesin", cache.InstNone, 4) // 4294967300 - 2^32
	h.WantAbsent("rate.swap.pagesin", cache.InstNone)
}

// No swap configured (this development machine): no swap areas, zero
// totals, no error.
func TestSwapNone(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "noswap", engine.Env{})
	h.MustSample(t0)
	if got := h.hostInstances(indomSwapdev); len(got) != 0 {
		t.Errorf("swap areas without swap: %v", got)
	}
	h.WantU64("swap.length", cache.InstNone, 0)
	h.WantU64("swap.used", cache.InstNone, 0)
	if n := h.Published("swapdev."); n != 0 {
		t.Errorf("%d swapdev values without swap", n)
	}
	// A kernel built without swap has no /proc/swaps at all.
	if err := os.Remove(filepath.Join(h.Proc, "swaps")); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t1)
	if got := h.hostInstances(indomSwapdev); len(got) != 0 {
		t.Errorf("swap areas without /proc/swaps: %v", got)
	}
}

// Odd names: an escaped space (kept as the kernel prints it, as pmdalinux
// does), a repeated line (reported once), a name that is not a path
// (skipped, as pmdalinux skips lines not starting with "/").
func TestSwapOddNames(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "swap-odd", engine.Env{})
	h.MustSample(t0)
	var names []string
	for _, x := range h.hostInstances(indomSwapdev) {
		names = append(names, x.Name)
	}
	want := []string{`/var/swap\040area`, "/dev/vdb2", "/dev/zram0"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("swap areas %v, want %v", names, want)
	}
	zram := h.hostInstanceID(indomSwapdev, "/dev/zram0")
	h.WantU64("swapdev.priority", zram, 100)
	h.WantU64("swapdev.length", zram, 8388604)
}

// Swap areas keep their ids: a removed one is not listed and its id not
// reused; an id map reload keeps every id.
func TestSwapdevStableIDs(t *testing.T) {
	env := engine.Env{IDDir: t.TempDir()}
	h := newHostHarness(t, NewSwapCollector, "t0", env)
	h.MustSample(t0)
	useHostTree(h, "swap-odd") // /swapfile swapped off; two new areas
	h.MustSample(t1)
	got := map[string]uint32{}
	for _, x := range h.hostInstances(indomSwapdev) {
		got[x.Name] = x.ID
	}
	want := map[string]uint32{"/dev/vdb2": 0, `/var/swap\040area`: 2, "/dev/zram0": 3}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
	h.WantAbsent("swapdev.length", 1)

	h2 := newHostHarness(t, NewSwapCollector, "t0", env) // a restart
	h2.MustSample(t0)
	if got := h2.hostInstances(indomSwapdev); !reflect.DeepEqual(got, swapWantT0) {
		t.Errorf("after a reload %v, want %v", got, swapWantT0)
	}
	useHostTree(h2, "swap-odd")
	h2.MustSample(t1)
	if id := h2.hostInstanceID(indomSwapdev, "/dev/zram0"); id != 3 {
		t.Errorf("/dev/zram0 has id %d after a reload, want 3", id)
	}
}

func TestSwapdevFilter(t *testing.T) {
	env := engine.Env{Filter: engine.Filter{"swapdev": {Include: regexp.MustCompile(`^/dev/`)}}}
	h := newHostHarness(t, NewSwapCollector, "t0", env)
	h.MustSample(t0)
	if got := h.hostInstances(indomSwapdev); !reflect.DeepEqual(got, swapWantT0[:1]) {
		t.Errorf("filtered swap areas %v, want only /dev/vdb2", got)
	}
	h.WantU64("swap.length", cache.InstNone, 5368700928) // totals are not filtered
}

func TestSwapMalformedAndMissing(t *testing.T) {
	// Malformed vmstat and swaps: reported, and only what meminfo gives
	// is published.
	t.Run("malformed", func(t *testing.T) {
		h := newHostHarness(t, NewSwapCollector, "malformed", engine.Env{})
		if err := h.Sample(t0); err == nil {
			t.Fatal("sample succeeded")
		}
		h.WantAbsent("swap.pagesin", cache.InstNone)
		if n := h.Published("swapdev."); n != 0 {
			t.Errorf("%d swapdev values from a malformed /proc/swaps", n)
		}
	})
	// No meminfo nor vmstat, and no /proc/swaps (no swap at all): the
	// failure counts, and there is no swap space to report.
	t.Run("empty", func(t *testing.T) {
		h := newHostHarness(t, NewSwapCollector, "empty", engine.Env{})
		if err := h.Sample(t0); err == nil {
			t.Fatal("sample succeeded")
		}
		h.WantAbsent("swap.length", cache.InstNone)
		h.WantAbsent("swap.pagesin", cache.InstNone)
	})
	// Only /proc/swaps bad: its areas have no values this sample; what
	// meminfo and vmstat give is still published.
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	bad, err := os.ReadFile(filepath.Join(testdataDir, hostTestdataDir, "malformed", "proc", "swaps"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.Proc, "swaps"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.Sample(t0); err == nil {
		t.Error("a malformed /proc/swaps went unreported")
	}
	if n := h.Published("swapdev."); n != 0 {
		t.Errorf("%d swapdev values from a malformed /proc/swaps", n)
	}
	h.WantU64("swap.length", cache.InstNone, 5368700928)
}

// Each file fails alone: without /proc/vmstat, swap.length and the swap
// areas still come from meminfo and /proc/swaps, as pmdalinux gives them.
func TestSwapWithoutVMStat(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	if err := os.Remove(filepath.Join(h.Proc, "vmstat")); err != nil {
		t.Fatal(err)
	}
	if err := h.Sample(t0); err == nil {
		t.Error("the missing /proc/vmstat went unreported")
	}
	h.WantAbsent("swap.pagesin", cache.InstNone)
	h.WantU64("swap.length", cache.InstNone, 5368700928)
	if n := h.Published("swapdev.length"); n == 0 {
		t.Error("no swapdev.length without /proc/vmstat")
	}
}

// The swap areas are chosen again whenever a name or type changes, and
// otherwise only their figures are read.
func TestSwapdevChanges(t *testing.T) {
	h := newHostHarness(t, NewSwapCollector, "t0", engine.Env{})
	swaps := filepath.Join(h.Proc, "swaps")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(swaps, []byte(swapsHeader+text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("/dev/vdb2 partition 100 10 -2\n")
	h.MustSample(t0)
	write("/dev/vdb2 partition 100 40 -5\n")
	h.MustSample(t1)
	h.WantU64("swapdev.free", 0, 60)
	if p := int64(h.U64("swapdev.priority", 0)); p != -5 {
		t.Errorf("priority %d, want -5", p)
	}
	write("/dev/vdb2 file 100 40 -5\n")
	h.MustSample(t1.Add(time.Second))
	want := []cache.Instance{{ID: 0, Name: "/dev/vdb2", Labels: []cache.Label{{Name: "type", Value: `"file"`}}}}
	if got := h.hostInstances(indomSwapdev); !reflect.DeepEqual(got, want) {
		t.Errorf("after a type change %v, want %v", got, want)
	}
	write("zram0 partition 100 0 -1\n/dev/vdb2 file 200 0 -5\n")
	h.MustSample(t1.Add(2 * time.Second))
	if got := h.hostInstances(indomSwapdev); !reflect.DeepEqual(got, want) {
		t.Errorf("with a line not naming a path first %v, want %v", got, want)
	}
	h.WantU64("swapdev.length", 0, 200)
	write("")
	h.MustSample(t1.Add(3 * time.Second))
	if got := h.hostInstances(indomSwapdev); len(got) != 0 {
		t.Errorf("swap areas after swapoff: %v", got)
	}
	h.WantAbsent("swapdev.length", 0)
}
