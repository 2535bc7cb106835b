package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixture testdata/host/t0 and t1, /proc/pressure (totals in microseconds):
//
//	              t0 total   t1 total   delta over 2 s
//	cpu some      68000000   68400000   400000
//	memory some    1000000    1100000   100000
//	memory full     400000     460000    60000
//	io some       13300000   13500000   200000
//	io full       11200000   11360000   160000
//	irq full        250000     250100      100
//
// The cpu file also has a "full" line (all zero), which pmdalinux does not
// export and neither do we.

func TestPressureValues(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "t0", engine.Env{})
	h.MustSample(t0)

	want := []cache.Instance{{ID: 10, Name: "10 second"}, {ID: 60, Name: "1 minute"}, {ID: 300, Name: "5 minute"}}
	if got := h.hostInstances(indomPressure); !reflect.DeepEqual(got, want) {
		t.Errorf("pressure instances %v, want %v", got, want)
	}
	// Averages are FLOAT, as pmdalinux reads them with %f.
	h.hostWantFloat32("kernel.all.pressure.cpu.some.avg", 10, 1.41)
	h.hostWantFloat32("kernel.all.pressure.cpu.some.avg", 60, 1.74)
	h.hostWantFloat32("kernel.all.pressure.cpu.some.avg", 300, 2.14)
	h.hostWantFloat32("kernel.all.pressure.memory.full.avg", 10, 0.20)
	h.hostWantFloat32("kernel.all.pressure.io.some.avg", 60, 0.61)
	h.hostWantFloat32("kernel.all.pressure.irq.full.avg", 300, 0.01)

	const n = cache.InstNone
	h.WantU64("kernel.all.pressure.cpu.some.total", n, 68000000)
	h.WantU64("kernel.all.pressure.memory.some.total", n, 1000000)
	h.WantU64("kernel.all.pressure.memory.full.total", n, 400000)
	h.WantU64("kernel.all.pressure.io.some.total", n, 13300000)
	h.WantU64("kernel.all.pressure.io.full.total", n, 11200000)
	h.WantU64("kernel.all.pressure.irq.full.total", n, 250000)
	if _, ok := h.Store.Schema().Lookup(engine.Prefix + "kernel.all.pressure.cpu.full.total"); ok {
		t.Error("cpu.full exported: pmdalinux has no such metric")
	}
	if n := h.Published("rate."); n != 0 {
		t.Errorf("first sample published %d rates", n)
	}
}

func TestPressureRates(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "t1")
	h.MustSample(t1)

	// Microseconds stalled per second is a dimensionless fraction of time.
	const n = cache.InstNone
	h.WantFloat("rate.kernel.all.pressure.cpu.some.total", n, 0.2)      // 400000 us / 2 s
	h.WantFloat("rate.kernel.all.pressure.memory.some.total", n, 0.05)  // 100000 us / 2 s
	h.WantFloat("rate.kernel.all.pressure.memory.full.total", n, 0.03)  // 60000 us / 2 s
	h.WantFloat("rate.kernel.all.pressure.io.some.total", n, 0.1)       // 200000 us / 2 s
	h.WantFloat("rate.kernel.all.pressure.io.full.total", n, 0.08)      // 160000 us / 2 s
	h.WantFloat("rate.kernel.all.pressure.irq.full.total", n, 0.00005)  // 100 us / 2 s
	h.hostWantFloat32("kernel.all.pressure.io.full.avg", 10, 0.40)      // t1's figure
	h.hostWantFloat32("kernel.all.pressure.memory.some.avg", 300, 0.11) // t1's figure
	if r := h.Resets(); r != 0 {
		t.Errorf("Resets() = %d", r)
	}
}

// testdata/host/reset is t0 with io's "some" total down from 13300000 to
// 5000000.
func TestPressureCounterReset(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "t0", engine.Env{})
	h.MustSample(t0)
	useHostTree(h, "reset")
	h.MustSample(t1)
	const n = cache.InstNone
	h.WantAbsent("rate.kernel.all.pressure.io.some.total", n)
	h.WantU64("kernel.all.pressure.io.some.total", n, 5000000)
	h.WantFloat("rate.kernel.all.pressure.io.full.total", n, 0) // unchanged: 0, not absent
	if r := h.Resets(); r != 1 {
		t.Errorf("Resets() = %d, want 1", r)
	}
	// From the new base: 5000000 -> 13500000 over 2 s = 4.25 s/s.
	useHostTree(h, "t1")
	h.MustSample(t1.Add(2 * time.Second))
	h.WantFloat("rate.kernel.all.pressure.io.some.total", n, 4.25)
}

// A kernel without PSI has no /proc/pressure: no values, and no error, on
// every sample.
func TestPressureAbsent(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "nopsi", engine.Env{})
	for i, at := range []time.Time{t0, t1} {
		if err := h.Sample(at); err != nil {
			t.Fatalf("sample %d on a kernel without PSI: %v", i, err)
		}
	}
	if n := h.Published("kernel.all.pressure.") + h.Published("rate."); n != 0 {
		t.Errorf("%d values without /proc/pressure", n)
	}
}

// Before 6.1 there is no irq file, and one unparsable file must not cost
// the others their values.
func TestPressurePartial(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "psi-partial", engine.Env{})
	h.MustSample(t0)
	const n = cache.InstNone
	h.WantU64("kernel.all.pressure.cpu.some.total", n, 68000000)
	h.WantU64("kernel.all.pressure.io.full.total", n, 11200000)
	for _, name := range []string{"irq.full", "memory.some", "memory.full"} {
		h.WantAbsent("kernel.all.pressure."+name+".total", n)
		h.WantAbsent("kernel.all.pressure."+name+".avg", 10)
	}
}

func TestPressureMalformed(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "malformed", engine.Env{})
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling only malformed pressure files succeeded")
	}
	h.NothingPublished()
}

// An empty /proc/pressure directory (every file gone) is no data too.
func TestPressureEmptyDir(t *testing.T) {
	h := newHostHarness(t, NewPressureCollector, "nopsi", engine.Env{})
	if err := os.Mkdir(filepath.Join(h.Proc, "pressure"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := h.Sample(t0); err != nil {
		t.Fatalf("empty /proc/pressure: %v", err)
	}
	if n := h.Published("kernel.all.pressure."); n != 0 {
		t.Errorf("%d values from an empty /proc/pressure", n)
	}
}
