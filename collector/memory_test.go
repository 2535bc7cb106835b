package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/proc-t0/meminfo (kB unless noted): MemTotal 24684092,
// MemFree 24300000, MemAvailable 24374424, Buffers 2000, Cached 214000,
// Dirty 12000, Writeback 400, HugePages_Total/Free/Rsvd/Surp 4/2/1/0 pages,
// Hugepagesize 2048, SReclaimable 66420, VmallocTotal 34359738367,
// DirectMap1G 25165824; no HardwareCorrupted line.
func TestMemoryValues(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-t0")
	h.MustSample(t0)

	const n = cache.InstNone
	h.WantU64("mem.physmem", n, 24684092)
	h.WantU64("mem.util.free", n, 24300000)
	h.WantU64("mem.util.available", n, 24374424)
	h.WantU64("mem.util.bufmem", n, 2000)
	h.WantU64("mem.util.cached", n, 214000)
	h.WantU64("mem.util.vmallocTotal", n, 34359738367)
	h.WantU64("mem.util.directMap1G", n, 25165824)
	h.WantU64("mem.util.slabReclaimable", n, 66420) // SReclaimable
	h.WantU64("mem.util.NFS_Unstable", n, 0)        // present and zero: a value

	// Derived, with pmdalinux's formulas:
	h.WantU64("mem.util.used", n, 384092)        // MemTotal - MemFree = 24684092 - 24300000
	h.WantU64("mem.util.other", n, 168092)       // used - Cached - Buffers = 384092 - 214000 - 2000
	h.WantU64("mem.util.cache_clean", n, 201600) // Cached - Dirty - Writeback = 214000 - 12000 - 400

	// Huge pages: counts, and count * Hugepagesize in bytes (2048 kB = 2097152 B).
	h.WantU64("mem.util.hugepagesTotal", n, 4)
	h.WantU64("mem.util.hugepagesTotalBytes", n, 8388608) // 4 * 2097152
	h.WantU64("mem.util.hugepagesFreeBytes", n, 4194304)  // 2 * 2097152
	h.WantU64("mem.util.hugepagesRsvdBytes", n, 2097152)  // 1 * 2097152
	h.WantU64("mem.util.hugepagesSurpBytes", n, 0)        // 0 * 2097152

	// No HardwareCorrupted line: no value, not 0.
	h.WantAbsent("mem.util.corrupthardware", n)
}

// testdata/proc-meminfo-partial/meminfo is proc-t0's without MemAvailable,
// Dirty, Hugepagesize and DirectMap1G.
func TestMemoryAbsentFields(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-meminfo-partial")
	h.MustSample(t0)

	const n = cache.InstNone
	for _, name := range []string{
		"mem.util.available", "mem.util.dirty", "mem.util.directMap1G",
		"mem.util.cache_clean", // needs Dirty
		"mem.util.hugepagesTotalBytes", "mem.util.hugepagesFreeBytes",
		"mem.util.hugepagesRsvdBytes", "mem.util.hugepagesSurpBytes", // need Hugepagesize
	} {
		h.WantAbsent(name, n)
	}
	h.WantU64("mem.util.hugepagesTotal", n, 4)
	h.WantU64("mem.util.used", n, 384092)
	h.WantU64("mem.util.writeback", n, 400)
}

func TestMemoryEmptyRoot(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-empty")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.NothingPublished()
}

// testdata/proc-malformed/meminfo gives MemTotal in "MB", a unit the kernel
// never prints: that line costs only itself. MemTotal and what derives
// from it have no value; the other lines are read.
func TestMemoryMalformed(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-malformed")
	h.MustSample(t0)
	h.WantAbsent("mem.physmem", cache.InstNone)
	h.WantAbsent("mem.util.used", cache.InstNone)
	h.WantU64("mem.util.free", cache.InstNone, 24300000)
}

// pmdalinux floors the derived differences at 0 rather than wrapping.
func TestMemoryDerivedFloor(t *testing.T) {
	var m kernel.Meminfo
	m.Set(kernel.MemTotal, 1000)
	m.Set(kernel.MemFree, 600)
	m.Set(kernel.MemCached, 300)
	m.Set(kernel.MemBuffers, 200)
	m.Set(kernel.MemDirty, 250)
	m.Set(kernel.MemWriteback, 100)
	if v, ok := memOther(&m); !ok || v != 0 { // 1000 - 600 - 300 - 200 < 0
		t.Errorf("memOther = %d, %v; want 0, true", v, ok)
	}
	if v, ok := memCacheClean(&m); !ok || v != 0 { // 300 - 250 - 100 < 0
		t.Errorf("memCacheClean = %d, %v; want 0, true", v, ok)
	}
	if v, ok := memUsed(&m); !ok || v != 400 {
		t.Errorf("memUsed = %d, %v; want 400, true", v, ok)
	}
	m.Has &^= 1 << kernel.MemFree
	if _, ok := memUsed(&m); ok {
		t.Error("memUsed without MemFree gave a value")
	}
}

func TestMemoryHugeBytesOverflow(t *testing.T) {
	total := hugeBytes(kernel.MemHugePagesTotal)
	var m kernel.Meminfo
	m.Set(kernel.MemHugePagesTotal, 1<<40)
	m.Set(kernel.MemHugepagesize, 1<<20)
	if v, ok := total(&m); ok {
		t.Errorf("2^40 pages of 1 GiB = %d, want no value", v)
	}
	m.Set(kernel.MemHugepagesize, 1<<60)
	m.Set(kernel.MemHugePagesTotal, 0)
	if v, ok := total(&m); ok {
		t.Errorf("a 2^60 kB page size gave %d, want no value", v)
	}
}

// A meminfo of any size is read whole: 200 KB of lines (a future kernel's
// many more) still give the values of the lines we know, wherever they are.
func TestMemoryLargeMeminfo(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-t0")
	orig, err := os.ReadFile(filepath.Join(h.Proc, "meminfo"))
	if err != nil {
		t.Fatal(err)
	}
	var big strings.Builder
	for i := 0; big.Len() < 200<<10; i++ {
		fmt.Fprintf(&big, "Future%d:    %d kB\n", i, i)
	}
	big.Write(orig)
	if err := os.WriteFile(filepath.Join(h.Proc, "meminfo"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t0)
	if h.U64("mem.physmem", cache.InstNone) == 0 {
		t.Error("no mem.physmem from a 200 KB meminfo")
	}
}
