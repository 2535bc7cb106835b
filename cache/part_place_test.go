package cache

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
)

// The metrics of a large source: per-instance numbers and texts, one
// value without instances, and a mirror's target.
var (
	pNum  = Desc{Name: "big.num", ID: NewMetricID(5, 0), Type: TypeU64, Sem: SemCounter, InDom: 9}
	pText = Desc{Name: "big.text", ID: NewMetricID(5, 1), Type: TypeString, Sem: SemInstant, InDom: 9}
	pAll  = Desc{Name: "big.all", ID: NewMetricID(5, 2), Type: TypeU64, Sem: SemInstant, InDom: InDomNone}
	pOdd  = Desc{Name: "big.odd", ID: NewMetricID(5, 3), Type: TypeU64, Sem: SemInstant, InDom: 9}
	pHot  = Desc{Name: "big.hot", ID: NewMetricID(5, 4), Type: TypeU64, Sem: SemCounter, InDom: 9}
)

func bigSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := NewSchema(Source{Name: "big", Metrics: []Desc{pNum, pText, pAll, pOdd, pHot},
		InDoms: []InDomDesc{{ID: 9, Name: "nine"}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bigSample sets n instances from first, instance by instance as a
// process table does: big.odd for odd instances only, big.hot mirrored
// from big.num for instances divisible by 7. It returns what each metric
// must then read, in the order set.
func bigSample(t *testing.T, b *Builder, first, n int, salt uint64) (*Part, map[*Desc][]Value) {
	t.Helper()
	want := map[*Desc][]Value{}
	b.Reset(time.Now())
	hot := map[uint32]bool{}
	for i := first; i < first+n; i++ {
		if i%7 == 0 {
			hot[uint32(i)] = true
		}
	}
	b.Mirror(hot, map[MetricID]MetricID{pNum.ID: pHot.ID})
	b.SetU64(pAll.ID, InstNone, uint64(n))
	want[&pAll] = []Value{{Inst: InstNone, Bits: uint64(n)}}
	for i := first; i < first+n; i++ {
		inst, v := uint32(i), uint64(i)*3+salt
		b.SetU64(pNum.ID, inst, v)
		want[&pNum] = append(want[&pNum], Value{Inst: inst, Bits: v})
		if hot[inst] {
			want[&pHot] = append(want[&pHot], Value{Inst: inst, Bits: v})
		}
		text := fmt.Sprintf("p%d.%d", i, salt)
		b.SetString(pText.ID, inst, text)
		want[&pText] = append(want[&pText], Value{Inst: inst, Str: text})
		if i%2 == 1 {
			b.SetU64(pOdd.ID, inst, v+1)
			want[&pOdd] = append(want[&pOdd], Value{Inst: inst, Bits: v + 1})
		}
	}
	b.Mirror(nil, nil)
	p, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	return p, want
}

// checkBig compares each metric's values in p with want.
func checkBig(t *testing.T, s *Schema, p *Part, want map[*Desc][]Value, round string) {
	t.Helper()
	for _, d := range []*Desc{&pNum, &pText, &pAll, &pOdd, &pHot} {
		got := p.AppendValues(nil, mustIndex(t, s, *d))
		if !slices.Equal(got, want[d]) {
			t.Fatalf("%s: %s holds %d values, want %d (first difference at %d)", round, d.Name,
				len(got), len(want[d]), firstDiff(got, want[d]))
		}
	}
}

func firstDiff(a, b []Value) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A large source's samples after its first are placed straight in the
// part's array; the values read back as set whether the table stays,
// grows past the regions (pairs then) or shrinks, and an unchanged
// sample still repeats the part before.
func TestLargeSamplesPlaced(t *testing.T) {
	s := bigSchema(t)
	b := s.NewBuilder(0, time.Now())
	const n = 30000 // above placeFrom values in all
	rounds := []struct {
		name        string
		first, n    int
		salt        uint64
		placed, rep bool
	}{
		{"the first sample", 0, n, 0, false, false},
		{"new values", 0, n, 1, true, false},
		{"the same values", 0, n, 1, true, true},
		{"some processes gone, others new", 500, n - 200, 2, true, false},
		{"more than the regions hold", 0, n + n/4, 3, true, false},
		{"most gone", 100, n / 5, 4, true, false},
		{"a table too small to place", 0, 50, 5, false, false},
	}
	for _, r := range rounds {
		p, want := bigSample(t, b, r.first, r.n, r.salt)
		checkBig(t, s, p, want, r.name)
		if p.Repeats() != r.rep {
			t.Errorf("%s: repeats %v, want %v", r.name, p.Repeats(), r.rep)
		}
		if b.place.on || b.place.all != nil {
			t.Errorf("%s: the builder still holds the placed array", r.name)
		}
		if placed := b.place.set > 0; placed != r.placed {
			t.Errorf("%s: placed %v, want %v", r.name, placed, r.placed)
		}
		if r.placed && cap(b.pairs) > keptPairs {
			t.Errorf("%s: a placed sample kept %d pairs", r.name, cap(b.pairs))
		}
	}
}

// A placed sample that fails publishes nothing, and the next one is
// placed from the last part that was.
func TestPlacedSampleFails(t *testing.T) {
	s := bigSchema(t)
	b := s.NewBuilder(0, time.Now())
	bigSample(t, b, 0, 30000, 0)
	b.Reset(time.Now())
	b.SetU64(pNum.ID, 1, 1)
	b.SetDouble(pNum.ID, 2, 1) // the wrong type: the sample fails
	if _, err := b.Part(); err == nil {
		t.Fatal("a sample with a wrong type succeeded")
	}
	p, want := bigSample(t, b, 0, 30000, 9)
	checkBig(t, s, p, want, "after a failure")
	if p.Repeats() {
		t.Error("new values after a failure repeat the part before it")
	}
}

// A large sample that repeats the last (Again) allocates no array for
// values it never places, and one that sets nothing publishes no value.
func TestPlacedRepeatAllocatesNothing(t *testing.T) {
	s := bigSchema(t)
	b := s.NewBuilder(0, time.Now())
	bigSample(t, b, 0, 30000, 0)
	bigSample(t, b, 0, 30000, 1)
	allocs := testing.AllocsPerRun(20, func() {
		b.Reset(time.Now())
		if !b.Again() {
			t.Fatal("a placed builder refused Again")
		}
		if p, err := b.Part(); err != nil || !p.Repeats() {
			t.Fatalf("Again: repeats %v, err %v", p != nil && p.Repeats(), err)
		}
	})
	// Reset's new Part, and repeat's: nothing the size of the table.
	if allocs > 4 {
		t.Errorf("a repeated sample made %.0f allocations", allocs)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	b.Reset(time.Now())
	b.Again()
	if _, err := b.Part(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	if grown := ms.TotalAlloc - before; grown > 64<<10 {
		t.Errorf("a repeated sample allocated %d bytes", grown)
	}
	// Nothing set: the placed sample is empty, not a repeat.
	b.Reset(time.Now())
	p, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	if p.Repeats() || len(p.all) != 0 {
		t.Errorf("an empty placed sample: repeats %v, %d values", p.Repeats(), len(p.all))
	}
}
