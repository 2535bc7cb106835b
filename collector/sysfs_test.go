package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/misc/sys/kernel/uevent_seqnum: 4242.
func TestSysfsUeventSeqnum(t *testing.T) {
	h, sys := newMiscSysHarness(t, NewSysfsCollector, "misc/sys")
	h.MustSample(t0)
	h.WantU64("sysfs.kernel.uevent_seqnum", cache.InstNone, 4242)
	file := filepath.Join(sys, "kernel", "uevent_seqnum")
	if err := os.WriteFile(file, []byte("4252\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.MustSample(t1)
	h.WantFloat("rate.sysfs.kernel.uevent_seqnum", cache.InstNone, 5) // 10 events in 2 s
	// Damaged, then gone: an error, and the last good value stays
	// published (a failed sample publishes nothing), never a crash.
	for _, damage := range []func() error{
		func() error { return os.WriteFile(file, []byte("many\n"), 0o644) },
		func() error { return os.Remove(file) },
	} {
		if err := damage(); err != nil {
			t.Fatal(err)
		}
		if err := h.Sample(t1.Add(2 * t1.Sub(t0))); err == nil {
			t.Error("no error")
		}
		h.WantU64("sysfs.kernel.uevent_seqnum", cache.InstNone, 4252)
	}
}
