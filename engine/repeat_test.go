package engine

import (
	"math"
	"time"

	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Samples that repeat the one before (nothing changed) share its values
// in the history, and figures over windows that span repeats and changes
// are what they would be with every sample copied: a counter standing
// still has rate 0, and a reset right after repeats is still found.
func TestRepeatedSamplesShareTheHistory(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	still := scriptStep{count: [2]uint64{100, 50}, ms: 1000, gauge: 3}
	g.sample(at(0), still)
	g.want(1, "hostcache.rate.test.count", 0, math.NaN())
	for k := 1; k <= 4; k++ {
		g.sample(at(k), still)
	}
	e := g.r.entries[0]
	newest, first := e.hist().newest(), e.hist().at(0)
	if !newest.shared || &newest.vals[0] != &first.vals[0] {
		t.Fatal("a sample repeating the one before copied its values")
	}
	if got := sampleBytes(newest); got != 96 {
		t.Errorf("a shared sample is counted as %d bytes, want its fields only", got)
	}
	g.want(1, "hostcache.rate.test.count", 0, 0)
	g.want(1, "hostcache.rate.test.ms", cache.InstNone, 0)
	// Growth after the repeats: a client fetching every 5 s gets it over
	// its whole interval.
	g.want(5, "hostcache.rate.test.count", 0, 0)
	for k := 5; k <= 9; k++ {
		step := still
		step.count[0] = 100 + uint64(10*(k-4))
		g.sample(at(k), step)
	}
	g.want(5, "hostcache.rate.test.count", 0, 10)
	// A counter going backwards right after repeats is a reset, counted.
	g.sample(at(10), still)
	g.sample(at(11), still)
	if g.r.entries[0].hist().resetsOf.Load() != 1 || !g.r.entries[0].hist().newest().shared {
		t.Errorf("resets %d after one counter went backwards and a repeat", g.r.entries[0].hist().resetsOf.Load())
	}
	g.want(5, "hostcache.rate.test.count", 1, 0)
}

// When the ring drops the sample that owns values later samples share,
// the memory is still counted once: the next sample owns it.
func TestSharedValuesCountedOnceAfterTheOwnerGoes(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: 10 * time.Second})
	still := scriptStep{count: [2]uint64{100, 50}, ms: 1000, gauge: 3}
	h := g.r.entries[0].hist()
	for k := 0; k <= 3*h.depth(); k++ {
		g.sample(at(k), still)
		vals := int64(8 * len(h.newest().vals))
		if want := 96*int64(h.held()) + vals; h.bytes.Load() != want {
			t.Fatalf("sample %d: %d bytes counted, want %d (%d samples sharing %d bytes of values)",
				k, h.bytes.Load(), want, h.held(), vals)
		}
	}
}
