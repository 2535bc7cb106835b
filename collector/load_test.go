package collector

import (
	"reflect"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: testdata/proc-t0/loadavg is "0.13 0.18 0.09 1/87 5937" and
// proc-t1/loadavg "0.25 0.20 0.10 2/88 5990".
func TestLoadValues(t *testing.T) {
	h := newHarness(t, NewLoadCollector, "proc-t0")
	h.MustSample(t0)

	// kernel.all.load is a FLOAT: the nearest float32, as pmdalinux's "%f".
	h.WantFloat("kernel.all.load", 1, float64(float32(0.13)))
	h.WantFloat("kernel.all.load", 5, float64(float32(0.18)))
	h.WantFloat("kernel.all.load", 15, float64(float32(0.09)))
	if n := len(h.Values("kernel.all.load")); n != 3 {
		t.Errorf("kernel.all.load has %d values, want 3", n)
	}
	h.WantU64("kernel.all.runnable", cache.InstNone, 1)
	h.WantU64("kernel.all.nprocs", cache.InstNone, 87)
	h.WantU64("kernel.all.lastpid", cache.InstNone, 5937)

	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantFloat("kernel.all.load", 1, float64(float32(0.25)))
	h.WantU64("kernel.all.runnable", cache.InstNone, 2)
	h.WantU64("kernel.all.nprocs", cache.InstNone, 88)
	h.WantU64("kernel.all.lastpid", cache.InstNone, 5990)
}

// The instances are exactly pmdalinux's (pminfo -f kernel.all.load).
func TestLoadInstances(t *testing.T) {
	h := newHarness(t, NewLoadCollector, "proc-t0")
	h.MustSample(t0)
	in, ok := h.Store.Load().InDom(indomLoadavg)
	if !ok {
		t.Fatal("no loadavg instance domain")
	}
	want := []cache.Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"}, {ID: 15, Name: "15 minute"}}
	got := in.All()
	if len(got) != len(want) {
		t.Fatalf("instances = %v, want %v", got, want)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("instance %d = %v, want %v", i, got[i], want[i])
		}
	}
	// pmdaInstance-style short names resolve too.
	if id, ok := in.Lookup("15"); !ok || id != 15 {
		t.Errorf(`Lookup("15") = %d, %v`, id, ok)
	}
	// The table is built once, not per sample.
	h.MustSample(t1)
	if again, _ := h.Store.Load().InDom(indomLoadavg); again != in {
		t.Error("instance table rebuilt on a later sample")
	}
}

func TestParseLoadavg(t *testing.T) {
	good := []struct {
		in   string
		want kernel.Loadavg
	}{
		{"0.13 0.18 0.09 1/87 5937\n", kernel.Loadavg{Load: [3]float64{float64(float32(0.13)), float64(float32(0.18)), float64(float32(0.09))}, Runnable: 1, NProcs: 87, LastPID: 5937}},
		{"12.50 3.00 0.00 10/2000 4194303 extra", kernel.Loadavg{Load: [3]float64{12.5, 3, 0}, Runnable: 10, NProcs: 2000, LastPID: 4194303}},
	}
	for _, c := range good {
		got, err := kernel.ParseLoadavg([]byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("parseLoadavg(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{
		"",
		"0.13 0.18 0.09 1/87",               // too few fields
		"0.13 0.18 0.09 1-87 5937",          // no slash
		"0.13 0.18 0.09 1/ 5937",            // empty count
		"0.13 x 0.09 1/87 5937",             // bad load
		"NaN 0.18 0.09 1/87 5937",           // not a number
		"-1 0.18 0.09 1/87 5937",            // negative load
		"0.13 0.18 0.09 1/87 -5",            // negative pid
		"0.13 0.18 0.09 1/99999999999 5937", // beyond 32 bits
	} {
		if got, err := kernel.ParseLoadavg([]byte(in)); err == nil {
			t.Errorf("parseLoadavg(%q) = %+v, want an error", in, got)
		}
	}
}

func TestLoadEmptyRoot(t *testing.T) {
	h := newHarness(t, NewLoadCollector, "proc-empty")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.NothingPublished()
}

// testdata/proc-malformed/loadavg has "1-87" for "1/87".
func TestLoadMalformed(t *testing.T) {
	h := newHarness(t, NewLoadCollector, "proc-malformed")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling a malformed loadavg succeeded")
	}
	h.NothingPublished()
}
