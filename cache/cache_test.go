package cache

import (
	"sync"
	"testing"
	"time"
)

var (
	dA = Desc{Name: "a", ID: NewMetricID(1, 0), Type: TypeU64, Sem: SemCounter, InDom: InDomNone}
	dB = Desc{Name: "b", ID: NewMetricID(1, 1), Type: TypeU64, Sem: SemCounter, InDom: InDomNone}
	dC = Desc{Name: "c", ID: NewMetricID(2, 0), Type: TypeFloat, Sem: SemInstant, InDom: 7}
)

func testSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := NewSchema(
		Source{Name: "one", Metrics: []Desc{dA, dB}},
		Source{Name: "two", Metrics: []Desc{dC}, InDoms: []InDomDesc{{ID: 7, Name: "seven"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSchemaRejectsDuplicates(t *testing.T) {
	if _, err := NewSchema(Source{Name: "x", Metrics: []Desc{dA, dA}}); err == nil {
		t.Error("duplicate id accepted")
	}
	renamed := dB
	renamed.Name = "a"
	if _, err := NewSchema(Source{Name: "x", Metrics: []Desc{dA, renamed}}); err == nil {
		t.Error("duplicate name accepted")
	}
	if _, err := NewSchema(Source{Name: "x", Metrics: []Desc{dC}}); err == nil {
		t.Error("metric with an unregistered indom accepted")
	}
}

func TestBuilderChecksTypesAndOwners(t *testing.T) {
	s := testSchema(t)
	b := s.NewBuilder(0, time.Now())
	b.SetDouble(dA.ID, InstNone, 1)
	if _, err := b.Part(); err == nil {
		t.Error("a double set on a U64 metric was accepted")
	}
	b = s.NewBuilder(0, time.Now())
	b.SetDouble(dC.ID, 1, 1)
	if _, err := b.Part(); err == nil {
		t.Error("source one set a metric of source two")
	}
}

// A slot sets the values SetU64 sets, and carries a failed check: a
// metric of another source or type, whose values are then dropped.
func TestSlotSetsWhatSetU64Sets(t *testing.T) {
	s := testSchema(t)
	direct := s.NewBuilder(0, time.Now())
	direct.SetU64(dA.ID, InstNone, 7)
	direct.SetU64(dB.ID, InstNone, 9)
	viaSlot := s.NewBuilder(0, time.Now())
	a, b := viaSlot.U64Slot(dA.ID), viaSlot.U64Slot(dB.ID)
	viaSlot.SetSlot(a, InstNone, 7)
	viaSlot.SetSlot(b, InstNone, 9)
	want, err1 := direct.Part()
	got, err2 := viaSlot.Part()
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	for _, d := range []Desc{dA, dB} {
		i, _ := s.Index(d.ID)
		if w, g := want.AppendValues(nil, i), got.AppendValues(nil, i); len(g) != 1 || g[0] != w[0] {
			t.Errorf("%s: slot set %v, SetU64 %v", d.Name, g, w)
		}
	}
	wrong := s.NewBuilder(0, time.Now())
	c := wrong.U64Slot(dC.ID)
	wrong.SetSlot(c, 1, 1)
	if _, err := wrong.Part(); err == nil {
		t.Error("a slot of source two's float metric was accepted by source one")
	}
}

// TestPublishIsAtomic: readers always see one whole generation, never a
// mix of two parts' values, while a writer publishes continuously.
func TestPublishIsAtomic(t *testing.T) {
	s := testSchema(t)
	st := NewFront(s)
	publish := func(n uint64) {
		b := s.NewBuilder(0, time.Now())
		b.SetU64(dA.ID, InstNone, n)
		b.SetU64(dB.ID, InstNone, n)
		p, err := b.Part()
		if err != nil {
			t.Error(err)
			return
		}
		st.Publish(0, p)
	}
	publish(0)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := uint64(1); n <= 2000; n++ {
			publish(n)
		}
	}()
	for i := 0; i < 2000; i++ {
		snap := st.Load()
		a, b := snap.Values(&dA), snap.Values(&dB)
		if len(a) != 1 || len(b) != 1 || a[0].Bits != b[0].Bits {
			t.Fatalf("torn snapshot: %v %v", a, b)
		}
	}
	wg.Wait()
	if g := st.Load().Generation; g != 2001 {
		t.Errorf("generation %d, want 2001", g)
	}
}

func TestSnapshotSharesOtherParts(t *testing.T) {
	s := testSchema(t)
	st := NewFront(s)
	b := s.NewBuilder(1, time.Now())
	b.SetDouble(dC.ID, 3, 2.5)
	b.SetInDom(7, NewInstances([]Instance{{ID: 3, Name: "three"}}))
	p, _ := b.Part()
	st.Publish(1, p)
	b = s.NewBuilder(0, time.Now())
	b.SetU64(dA.ID, InstNone, 9)
	p, _ = b.Part()
	st.Publish(0, p)
	snap := st.Load()
	if v := snap.Values(&dC); len(v) != 1 || v[0].Float() != 2.5 {
		t.Errorf("source two's part lost: %v", v)
	}
	if in, ok := snap.InDom(7); !ok || in.Len() != 1 {
		t.Errorf("indom lost")
	}
	if v := snap.AppendValues(nil, &dB, time.Now()); len(v) != 0 {
		t.Errorf("a metric absent from the sample has values: %v", v)
	}
}

func TestInstancesLookup(t *testing.T) {
	in := NewInstances([]Instance{{ID: 1, Name: "1 minute"}, {ID: 5, Name: "5 minute"},
		{ID: 15, Name: "15 minute"}, {ID: 20, Name: "sda"}, {ID: 21, Name: "sda x"}})
	cases := map[string]struct {
		id uint32
		ok bool
	}{
		"1 minute": {1, true}, "5": {5, true}, "15": {15, true},
		"sda": {20, true}, "sda x": {21, true}, "2": {0, false}, "5 hours": {0, false},
	}
	for name, want := range cases {
		id, ok := in.Lookup(name)
		if ok != want.ok || (ok && id != want.id) {
			t.Errorf("Lookup(%q) = %d %v, want %d %v", name, id, ok, want.id, want.ok)
		}
	}
	if n, ok := in.Name(15); !ok || n != "15 minute" {
		t.Errorf("Name(15) = %q", n)
	}
}

func TestUnits(t *testing.T) {
	// Words as pminfo shows them (protocol reference 2.3).
	for u, want := range map[Units]uint32{UnitsSec: 0x01003000, UnitsCount: 0x00100000,
		MakeUnits(1, -1, 0, SpaceKByte, TimeSec, 0): 0x1f013000} {
		if uint32(u) != want {
			t.Errorf("units %#x, want %#x", uint32(u), want)
		}
	}
	r, f := RateOf(UnitsMSec)
	if r != UnitsNone || f != 1e-3 {
		t.Errorf("rate of ms: %#x x%v, want dimensionless x0.001", uint32(r), f)
	}
	r, f = RateOf(UnitsCount)
	if r != UnitsCountPerSec || f != 1 {
		t.Errorf("rate of count: %#x x%v", uint32(r), f)
	}
	r, _ = RateOf(UnitsKByte)
	if r != MakeUnits(1, -1, 0, SpaceKByte, TimeSec, 0) || r.DimTime() != -1 {
		t.Errorf("rate of Kbyte: %#x", uint32(r))
	}
}

// A reused builder starts each part empty and leaves the parts it returned
// before untouched.
func TestBuilderReset(t *testing.T) {
	schema, err := NewSchema(Source{Name: "s", Metrics: []Desc{
		{ID: NewMetricID(0, 1), Name: "a", Type: TypeU64, InDom: InDomNone},
		{ID: NewMetricID(0, 2), Name: "b", Type: TypeU64, InDom: InDomNone},
	}})
	if err != nil {
		t.Fatal(err)
	}
	store := NewFront(schema)
	b := schema.NewBuilder(0, time.Unix(1, 0))
	b.SetU64(NewMetricID(0, 1), InstNone, 11)
	b.SetU64(NewMetricID(0, 2), InstNone, 22)
	first, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	b.Reset(time.Unix(2, 0))
	b.SetU64(NewMetricID(0, 2), InstNone, 33)
	second, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := schema.Desc(NewMetricID(0, 1))
	bd, _ := schema.Desc(NewMetricID(0, 2))
	store.Publish(0, first)
	if v := store.Load().Values(a); len(v) != 1 || v[0].Bits != 11 {
		t.Errorf("first part a = %v", v)
	}
	if v := store.Load().Values(bd); len(v) != 1 || v[0].Bits != 22 {
		t.Errorf("first part b = %v after reuse", v)
	}
	store.Publish(0, second)
	if v := store.Load().Values(a); len(v) != 0 {
		t.Errorf("second part a = %v, want none", v)
	}
	if v := store.Load().Values(bd); len(v) != 1 || v[0].Bits != 33 {
		t.Errorf("second part b = %v", v)
	}
	b.Reset(time.Unix(3, 0))
	b.SetU64(NewMetricID(7, 7), InstNone, 1) // unknown: an error for this part only
	if _, err := b.Part(); err == nil {
		t.Error("unknown metric accepted")
	}
	b.Reset(time.Unix(4, 0))
	if _, err := b.Part(); err != nil {
		t.Errorf("error carried over a reset: %v", err)
	}
}

// A client's read marks its metric's source as read, and wakes a source
// marked idle; a read on no client's behalf (tools, tests) marks nothing.
func TestReadsMarkTheirSource(t *testing.T) {
	a := Desc{Name: "a", ID: NewMetricID(1, 0), Type: TypeU64, Sem: SemInstant, InDom: InDomNone}
	b := Desc{Name: "b", ID: NewMetricID(2, 0), Type: TypeU64, Sem: SemInstant, InDom: InDomNone}
	schema, err := NewSchema(Source{Name: "one", Metrics: []Desc{a}}, Source{Name: "two", Metrics: []Desc{b}})
	if err != nil {
		t.Fatal(err)
	}
	front := NewFront(schema)
	now := time.Unix(1795320600, 0)
	(&Request{Snap: front.Load(), Now: now, Client: NoClient}).AppendValues(nil, &a)
	if !schema.LastRead(0).IsZero() {
		t.Error("a read on no client's behalf marked its source")
	}
	schema.SetIdle(1, true)
	(&Request{Snap: front.Load(), Now: now, Client: 3}).AppendValues(nil, &b)
	if !schema.LastRead(1).Equal(now) || !schema.LastRead(0).IsZero() {
		t.Errorf("last reads %v, %v", schema.LastRead(0), schema.LastRead(1))
	}
	select {
	case <-schema.ReadWake(1):
	default:
		t.Error("the idle source was not woken")
	}
}

// Metric ids are found by cluster and item, in every cluster in use
// (the peaks' above 2048 included), and nothing else is: not an unused
// item of a used cluster, not an id carrying bits beyond cluster and item.
func TestSchemaIndexByClusterAndItem(t *testing.T) {
	low := Desc{ID: NewMetricID(1, 5), Name: "hostcache.low", Type: TypeU64, InDom: InDomNone}
	high := Desc{ID: NewMetricID(2090, 1023), Name: "hostcache.high", Type: TypeU64, InDom: InDomNone}
	s, err := NewSchema(Source{Name: "x", Metrics: []Desc{low, high}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Desc{low, high} {
		if i, ok := s.Index(d.ID); !ok || s.Descs()[i].Name != d.Name {
			t.Errorf("Index(%v) = %d, %v", d.ID, i, ok)
		}
	}
	for _, id := range []MetricID{NewMetricID(1, 6), NewMetricID(3, 5), low.ID | 1<<22, NewMetricID(4095, 0)} {
		if _, ok := s.Index(id); ok {
			t.Errorf("Index(%#x) found", uint32(id))
		}
	}
}

// A builder that skips what its schema lacks says why for the first
// value only: the others are counted without an allocation.
func TestSkipUnknownCountsWithoutAllocating(t *testing.T) {
	b := testSchema(t).NewBuilder(0, time.Now())
	b.SkipUnknown()
	sample := func() {
		b.Reset(time.Now())
		b.SetU64(dA.ID, InstNone, 1)
		for i := range 1000 {
			b.SetU64(NewMetricID(9, uint32(i)), InstNone, 1)
		}
	}
	sample()
	if n, why := b.Skipped(); n != 1000 || why == nil {
		t.Fatalf("skipped %d (%v), want 1000 with a reason", n, why)
	}
	if p, err := b.Part(); err != nil || len(p.AppendValues(nil, 0)) != 1 {
		t.Fatalf("the known value: %v", err)
	}
	if n := testing.AllocsPerRun(10, sample); n > 10 { // the part, the first reason
		t.Errorf("%v allocations a sample of 1000 values skipped", n)
	}
}
