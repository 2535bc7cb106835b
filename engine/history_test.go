package engine

import (
	"math"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
	if newest.own.count() != 0 || &newest.vals.flat[0] != &first.vals.flat[0] {
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
	if g.r.entries[0].hist().resetsOf.Load() != 1 || g.r.entries[0].hist().newest().own.count() != 0 {
		t.Errorf("resets %d after one counter went backwards and a repeat", g.r.entries[0].hist().resetsOf.Load())
	}
	g.want(5, "hostcache.rate.test.count", 1, 0)
}

// When the ring drops the sample that owns values and a layout later
// samples share, the memory is still counted once: the next sample owns
// it.
func TestSharedValuesCountedOnceAfterTheOwnerGoes(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: 10 * time.Second})
	still := scriptStep{count: [2]uint64{100, 50}, ms: 1000, gauge: 3}
	h := g.r.entries[0].hist()
	for k := 0; k <= 3*h.depth(); k++ {
		g.sample(at(k), still)
		vals, lay := int64(8*len(h.newest().vals.flat)), h.newest().layout.bytes()
		if want := 96*int64(h.held()) + vals + lay; h.bytes.Load() != want {
			t.Fatalf("sample %d: %d bytes counted, want %d (%d samples sharing %d bytes of values and a %d-byte layout)",
				k, h.bytes.Load(), want, h.held(), vals, lay)
		}
	}
}

// Samples taken between grid samples (for fetches, for readers' phases)
// do not shorten the history: a client whose window began a minute ago
// still gets its rate over that whole minute, and samples older than the
// history's span go.
func TestExtraSamplesKeepTheHistorySpan(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, MaxClients: 8})
	e := g.r.entries[0]
	extra := func(at time.Time, k int) {
		g.src.step, g.now = steady(k), at
		if err := g.r.collect(e, at, true); err != nil {
			t.Fatal(err)
		}
	}
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count") // client 1's window starts at 1 s
	for k := 2; k <= 61; k++ {
		// Two samples for fetches inside each second, at the counters of
		// the second before.
		extra(at(k-1).Add(300*time.Millisecond), k-1)
		extra(at(k-1).Add(700*time.Millisecond), k-1)
		g.sample(at(k), steady(k))
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*61*61-10*1*1)/60)
	for k := 62; k <= 130; k++ {
		extra(at(k-1).Add(500*time.Millisecond), k-1)
		g.sample(at(k), steady(k))
	}
	h := e.hist()
	oldest := h.at(h.oldest.Load())
	if oldest == nil {
		t.Fatal("no oldest sample")
	}
	if age := g.now.Sub(oldest.at); age > time.Minute+500*time.Millisecond || age < time.Minute {
		t.Errorf("the oldest sample kept is %v old, want a minute and at most half an interval", age)
	}
	if n := h.held(); n != 122 {
		t.Errorf("%d samples held, want the 122 of a minute and half a second at two a second", n)
	}
	if got := h.samplesPerSecond(time.Second); got < 1.9 || got > 2.1 {
		t.Errorf("measured %v samples a second, want 2", got)
	}
}

// A counter that jumps by more than half its range in one step (a driver
// reporting 2^64-1) is a reset: that step gives no rate, never 7e19/s.
func TestImplausibleJumpIsAReset(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{100, 100}, ms: 0})
	g.sample(at(1), scriptStep{count: [2]uint64{110, 105}, ms: 500})
	g.fetch(1, "hostcache.rate.test.count")
	g.fetch(1, "hostcache.test.util")
	g.sample(at(2), scriptStep{count: [2]uint64{math.MaxUint64 - 1, 110}, ms: math.MaxUint64})
	g.want(1, "hostcache.rate.test.count", 0, math.NaN())
	g.want(1, "hostcache.rate.test.count", 1, 5)
	g.want(1, "hostcache.test.util", cache.InstNone, math.NaN())
	g.sample(at(3), scriptStep{count: [2]uint64{120, 115}, ms: 1000})
	g.want(2, "hostcache.rate.test.count", 0, math.NaN()) // back down: a reset again
	g.sample(at(4), scriptStep{count: [2]uint64{130, 120}, ms: 1500})
	g.want(2, "hostcache.rate.test.count", 0, 10)
	g.want(2, "hostcache.test.util", cache.InstNone, 50)
	if n := g.r.entries[0].stats.resets.Load(); n != 4 {
		t.Errorf("resets = %d, want 4 (two jumps up, two down)", n)
	}
}

// An instance renewed (a PID the kernel gave a new process) starts again:
// no step runs across the renewal, even one that looks like growth, and
// the other instances' rates are untouched.
func TestRenewedInstanceStartsAgain(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{100, 100}})
	g.fetch(2, "hostcache.rate.test.count")
	g.sample(at(1), scriptStep{count: [2]uint64{110, 105}})
	g.sample(at(2), scriptStep{count: [2]uint64{500, 110}, renew: true})
	g.want(2, "hostcache.rate.test.count", 0, math.NaN())
	g.want(2, "hostcache.rate.test.count", 1, 5)
	g.sample(at(3), scriptStep{count: [2]uint64{520, 115}})
	g.sample(at(4), scriptStep{count: [2]uint64{540, 120}})
	g.want(2, "hostcache.rate.test.count", 0, 20)
}

// Metrics over the same instances share one instance list in a layout,
// and the layout is counted once: a process's twenty counters cost one
// list of PIDs, not twenty.
func TestLayoutSharesOneListAcrossMetrics(t *testing.T) {
	src := newWideSource(23, 256)
	r, _ := attachedWith(t, zerolog.Nop(), Schedule{Default: time.Second, History: time.Minute}, src)
	now := t0
	sample := func() *layout {
		t.Helper()
		now = now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			t.Fatal(err)
		}
		return r.entries[0].hist().newest().layout
	}
	first := sample()
	if second := sample(); second != first {
		t.Fatal("a sample with the same instances made a new layout")
	}
	src.insts = 255 // an instance went: a new layout, still one list
	for _, l := range []*layout{first, sample()} {
		for k, list := range l.lists {
			if len(list) == 0 || &list[0] != &l.lists[0][0] {
				t.Fatalf("tracked metric %d has a list of its own", k)
			}
		}
		// Past chunkedFrom values, the layout also places each metric on
		// chunks (starts, chunkMetric).
		if got, most := l.bytes(), int64(4*256+1024+4*len(l.starts)+4*len(l.chunkMetric)); got > most {
			t.Errorf("a layout of one list of %d instances counted as %d bytes, more than %d",
				len(l.lists[0]), got, most)
		}
	}
}

// find looks outwards from the position an instance had elsewhere: an
// instance moved by others that started or ended is found, and one that
// is not there is not.
func TestLayoutFindsMovedInstances(t *testing.T) {
	list := []uint32{10, 11, 13, 14, 15, 16}
	l := &layout{ends: []int32{3, 9}, lists: [][]uint32{{1, 2, 3}, list}}
	for _, c := range []struct {
		inst     uint32
		ordinal  int
		want     int
		wantFind bool
	}{
		{14, 3, 6, true},  // where it was
		{14, 4, 6, true},  // one before went
		{14, 1, 6, true},  // two came before it
		{16, 9, 8, true},  // an ordinal past the end
		{10, -1, 3, true}, // no ordinal
		{12, 2, 0, false}, // gone
	} {
		p, ok := l.find(1, c.inst, c.ordinal)
		if ok != c.wantFind || (ok && p != c.want) {
			t.Errorf("find(%d, ordinal %d) = %d, %v; want %d, %v", c.inst, c.ordinal, p, ok, c.want, c.wantFind)
		}
	}
}
