package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// testdata/disk t0 and t1: md127, 2093056 sectors, clean; at t1 one member
// missing (md/degraded 1).
func TestDiskMDCapacityAndStatus(t *testing.T) {
	f := newDiskFixture(t, "t0", engine.Env{})
	f.MustSample(t0)
	in, ok := f.Store.Load().InDom(indomMD)
	if !ok {
		t.Fatal("no md domain")
	}
	md, ok := in.Lookup("md127")
	if !ok {
		t.Fatal("md127 not listed")
	}
	f.WantU64("disk.md.capacity", md, 1046528) // sectors / 2
	f.WantU64("disk.md.status", md, 0)
	f.load("t1")
	f.MustSample(t1)
	f.WantU64("disk.md.status", md, 1) // degraded: as mdadm --test says
}

func TestMDStatusOf(t *testing.T) {
	for _, c := range []struct {
		state    string
		degraded uint64
		want     int64
	}{
		{"clean\n", 0, 0}, {"active", 0, 0}, {"active-idle", 0, 0}, {"clean", 1, 1}, {"active", 2, 1},
		{"inactive", 0, 2}, {"broken", 1, 2}, {"clear", 0, 2}, {"read-auto", 0, 0},
	} {
		if got := mdStatusOf(c.state, c.degraded); got != c.want {
			t.Errorf("%q with %d missing: %d, want %d", c.state, c.degraded, got, c.want)
		}
	}
}
