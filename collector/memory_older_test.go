package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// The lines only some kernels print (a 32-bit HIGHMEM kernel's split, a
// 2.4 kernel's MemShared, ...) give pmdalinux's mem.util fields where they
// are printed, and no value where they are not.
func TestMemoryOlderKernelLines(t *testing.T) {
	h := newHarness(t, NewMemoryCollector, "proc-t0")
	h.MustSample(t0)
	for _, name := range []string{"mem.util.highTotal", "mem.util.shared", "mem.util.quicklists"} {
		if _, ok := h.Value(name, cache.InstNone); ok {
			t.Errorf("%s has a value from a meminfo without its line", name)
		}
	}
	path := filepath.Join(h.Proc, "meminfo")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := "MemShared:           11 kB\nHighTotal:      2097152 kB\nHighFree:        1048576 kB\n" +
		"LowTotal:        886000 kB\nLowFree:          44000 kB\nReverseMaps:      1234\n" +
		"MmapCopy:             5 kB\nQuicklists:         321 kB\n"
	if err := os.WriteFile(path, append(data, lines...), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t1)
	for name, want := range map[string]uint64{"mem.util.shared": 11, "mem.util.highTotal": 2097152,
		"mem.util.highFree": 1048576, "mem.util.lowTotal": 886000, "mem.util.lowFree": 44000,
		"mem.util.reverseMaps": 1234, "mem.util.mmap_copy": 5, "mem.util.quicklists": 321} {
		h.WantU64(name, cache.InstNone, want)
	}
}
