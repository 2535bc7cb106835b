package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Descriptors shaped like the cpu collector's, declared here so the engine's
// tests need no collector.
const testInDomCPU cache.InDomID = 1

var (
	testCPUUser    = Metric("hostcache.kernel.all.cpu.user", 1, 0, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, cache.InDomNone)
	testPerCPUUser = Metric("hostcache.kernel.percpu.cpu.user", 1, 20, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, testInDomCPU)
	testPswitch    = Metric("hostcache.kernel.all.pswitch", 1, 40, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	testRunning    = Metric("hostcache.kernel.all.running", 1, 43, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	testLoad       = Metric("hostcache.kernel.all.load", 3, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 2)
)

func TestRateOf(t *testing.T) {
	for _, c := range []struct {
		name   string
		in     cache.Units
		want   cache.Units
		factor float64
	}{
		// A time counter's rate is time per time: dimensionless, in s/s.
		{"millisec", cache.UnitsMSec, cache.UnitsNone, 1e-3},
		{"sec", cache.UnitsSec, cache.UnitsNone, 1},
		{"microsec", cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0), cache.UnitsNone, 1e-6},
		{"nanosec", cache.MakeUnits(0, 1, 0, 0, cache.TimeNSec, 0), cache.UnitsNone, 1e-9},
		// Anything else gains "/ sec" and keeps its own scales.
		{"count", cache.UnitsCount, cache.UnitsCountPerSec, 1},
		{"Kbyte", cache.UnitsKByte, cache.MakeUnits(1, -1, 0, cache.SpaceKByte, cache.TimeSec, 0), 1},
		{"byte", cache.UnitsByte, cache.MakeUnits(1, -1, 0, cache.SpaceByte, cache.TimeSec, 0), 1},
		{"none", cache.UnitsNone, cache.MakeUnits(0, -1, 0, 0, cache.TimeSec, 0), 1},
	} {
		got, factor := cache.RateOf(c.in)
		if got != c.want || math.Abs(factor-c.factor) > 1e-18 {
			t.Errorf("RateOf(%s) = %#x, %v; want %#x, %v", c.name, uint32(got), factor, uint32(c.want), c.factor)
		}
	}
}

func TestRateDesc(t *testing.T) {
	user := testCPUUser
	got := RateDesc(user)
	want := cache.Desc{
		Name:  "hostcache.rate.kernel.all.cpu.user",
		ID:    cache.NewMetricID(1, 0+RateItemOffset),
		Type:  cache.TypeDouble,
		Sem:   cache.SemInstant,
		Units: cache.UnitsNone,
		InDom: cache.InDomNone,
	}
	if got.Name != want.Name || got.ID != want.ID || got.Type != want.Type ||
		got.Sem != want.Sem || got.Units != want.Units || got.InDom != want.InDom {
		t.Errorf("RateDesc(kernel.all.cpu.user) = %+v, want %+v", got, want)
	}
	// A per-instance counter's rate keeps the instance domain.
	if r := RateDesc(testPerCPUUser); r.InDom != testInDomCPU || r.ID.Item() != 20+RateItemOffset {
		t.Errorf("per-CPU rate = %+v", r)
	}
}

// The engine computes, for each counter, its rate and the rate's peaks;
// for an instant marked WithPeaks, its peaks; and nothing for the others.
func TestWindowedOf(t *testing.T) {
	src := cache.Source{Metrics: []cache.Desc{testPswitch, testRunning, WithPeaks(testLoad), testCPUUser}}
	var names []string
	for _, wm := range windowedOf(src, nil) {
		names = append(names, wm.desc.Name)
	}
	want := []string{
		"hostcache.rate.kernel.all.pswitch", "hostcache.max.rate.kernel.all.pswitch", "hostcache.min.rate.kernel.all.pswitch",
		"hostcache.max.kernel.all.load", "hostcache.min.kernel.all.load",
		"hostcache.rate.kernel.all.cpu.user", "hostcache.max.rate.kernel.all.cpu.user", "hostcache.min.rate.kernel.all.cpu.user",
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("windowed = %v\nwant %v", names, want)
	}
}

// Peak twins keep the base's type, units and indom; their PMIDs are the
// base's (the rate's for a rate) in the cluster 1024 or 2048 above.
func TestPeakDesc(t *testing.T) {
	r := RateDesc(testPswitch)
	mx, mn := PeakDesc(r, true), PeakDesc(r, false)
	if mx.ID != cache.NewMetricID(1+MaxClusterOffset, 40+RateItemOffset) || mn.ID != cache.NewMetricID(1+MinClusterOffset, 40+RateItemOffset) {
		t.Errorf("peak ids %s %s", mx.ID, mn.ID)
	}
	if mx.Type != cache.TypeDouble || mx.Units != r.Units || mx.Sem != cache.SemInstant {
		t.Errorf("max desc %+v", mx)
	}
	l := PeakDesc(WithPeaks(testLoad), true)
	if l.Type != cache.TypeFloat || l.InDom != testLoad.InDom || l.Peaks {
		t.Errorf("max load desc %+v", l)
	}
}

// A source whose history keeps its counters alone leaves its plain
// instants out, keeps those with peaks or a figure computed like them,
// and a source without the flag keeps every number.
func TestCountersOnlyHistoryKeepsWhatFiguresNeed(t *testing.T) {
	counter := Metric("hostcache.test.only.count", 30, 0, cache.TypeU64, cache.SemCounter, cache.UnitsCount, 30)
	size := Metric("hostcache.test.only.size", 30, 1, cache.TypeU64, cache.SemInstant, cache.UnitsCount, 30)
	peaked := Metric("hostcache.test.only.peaked", 30, 2, cache.TypeU64, cache.SemInstant, cache.UnitsCount, 30)
	peaked.Peaks = true
	liked := Metric("hostcache.test.only.liked", 30, 3, cache.TypeU64, cache.SemInstant, cache.UnitsCount, 30)
	for _, only := range []bool{true, false} {
		schema, err := cache.NewSchema(cache.Source{Name: "only", CountersOnly: only,
			Metrics: []cache.Desc{counter, size, peaked, liked}, InDoms: []cache.InDomDesc{{ID: 30, Name: "only"}}})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, i := range trackedOf(schema, 0, map[cache.MetricID]bool{liked.ID: true}) {
			names = append(names, schema.Descs()[i].Name)
		}
		want := []string{counter.Name, size.Name, peaked.Name, liked.Name}
		if only {
			want = []string{counter.Name, peaked.Name, liked.Name}
		}
		if !slices.Equal(names, want) {
			t.Errorf("CountersOnly %v: history keeps %v, want %v", only, names, want)
		}
	}
}
