package cache

import (
	"testing"
	"time"
)

// A dynamic source's metrics sort after every other source's, even where
// their ids are lower, so that its changes leave the others' indexes.
func dynamicSchema(t *testing.T, metrics ...Desc) *Schema {
	t.Helper()
	s, err := NewSchema(
		Source{Name: "one", Metrics: []Desc{dA, dB}},
		Source{Name: "dyn", Metrics: metrics, Dynamic: true},
		Source{Name: "two", Metrics: []Desc{dC}, InDoms: []InDomDesc{{ID: 7, Name: "seven"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var (
	dLow  = Desc{Name: "dyn.low", ID: NewMetricID(0, 5), Type: TypeU64, Sem: SemCounter, InDom: InDomNone}
	dHigh = Desc{Name: "dyn.high", ID: NewMetricID(9, 1), Type: TypeDouble, Sem: SemInstant, InDom: InDomNone}
)

func TestDynamicSourceSortsLastAndChangesAlone(t *testing.T) {
	s := dynamicSchema(t, dLow)
	before := map[string]int{}
	for i, d := range s.Descs() {
		before[d.Name] = i
	}
	if before["dyn.low"] != len(s.Descs())-1 {
		t.Fatalf("the dynamic metric is at %d of %d", before["dyn.low"], len(s.Descs()))
	}
	n, err := s.WithSource(1, Source{Name: "dyn", Metrics: []Desc{dHigh, dLow}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Desc{dA, dB, dC} {
		if i, _ := n.Index(d.ID); i != before[d.Name] {
			t.Errorf("%s moved from %d to %d", d.Name, before[d.Name], i)
		}
	}
	if d, ok := n.Lookup("dyn.high"); !ok || d.ID != dHigh.ID {
		t.Error("the new metric is not in the new schema")
	}
	if _, ok := s.Lookup("dyn.high"); ok {
		t.Error("the old schema changed")
	}
	if _, err := n.WithSource(0, Source{Name: "one"}); err == nil {
		t.Error("a static source was replaced")
	}
	if _, err := n.WithSource(1, Source{Name: "other"}); err == nil {
		t.Error("a dynamic source was replaced under another name")
	}
	if _, err := n.WithSource(1, Source{Name: "dyn", Metrics: []Desc{dA}}); err == nil {
		t.Error("a dynamic source took a static source's id")
	}
}

// The record of reads carries over a change: a read noted through the new
// schema is seen through the old one's sampler view and the reverse.
func TestDynamicSourceSharesReads(t *testing.T) {
	s := dynamicSchema(t, dLow)
	n, err := s.WithSource(1, Source{Name: "dyn", Metrics: []Desc{dLow}})
	if err != nil {
		t.Fatal(err)
	}
	i, _ := n.Index(dA.ID)
	now := time.Now()
	n.noteRead(i, 3, now)
	if s.LastRead(0).IsZero() {
		t.Error("a read through the new schema is not seen through the old")
	}
}

// Replace swaps schema and snapshot together: the other sources' parts
// stay and keep publishing; the dynamic source has no part until it
// publishes one built on the new schema, and a part built before the
// change is dropped.
func TestFrontReplace(t *testing.T) {
	s := dynamicSchema(t, dLow)
	st := NewFront(s)
	publish := func(schema *Schema, source int, id MetricID, v uint64) {
		b := schema.NewBuilder(source, time.Now())
		b.SetU64(id, InstNone, v)
		p, err := b.Part()
		if err != nil {
			t.Fatal(err)
		}
		st.Publish(source, p)
	}
	publish(s, 0, dA.ID, 1)
	publish(s, 1, dLow.ID, 2)
	stale := s.NewBuilder(1, time.Now())
	stale.SetU64(dLow.ID, InstNone, 99)
	staleP, err := stale.Part()
	if err != nil {
		t.Fatal(err)
	}
	n, err := st.Replace(1, Source{Name: "dyn", Metrics: []Desc{dLow, dHigh}})
	if err != nil {
		t.Fatal(err)
	}
	snap := st.Load()
	if snap.Schema != n || st.Schema() != n {
		t.Fatal("the snapshot's schema is not the new one")
	}
	if v := snap.Values(&dA); len(v) != 1 || v[0].Bits != 1 {
		t.Errorf("source one's part after the change: %v", v)
	}
	if v := snap.Values(&dLow); len(v) != 0 {
		t.Errorf("the dynamic source's old part survived the change: %v", v)
	}
	st.Publish(1, staleP)
	if v := st.Load().Values(&dLow); len(v) != 0 {
		t.Errorf("a part built before the change was published: %v", v)
	}
	publish(s, 0, dA.ID, 5) // a static source's builder keeps its schema
	if v := st.Load().Values(&dA); len(v) != 1 || v[0].Bits != 5 {
		t.Errorf("source one's part built on the first schema after the change: %v", v)
	}
	b := n.NewBuilder(1, time.Now())
	b.SetU64(dLow.ID, InstNone, 7)
	b.SetDouble(dHigh.ID, InstNone, 0.5)
	p, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	st.Publish(1, p)
	if v := st.Load().Values(&dLow); len(v) != 1 || v[0].Bits != 7 {
		t.Errorf("the dynamic source's new part: %v", v)
	}
}

// A second dynamic source is refused: a change of one would move the
// other's indexes.
func TestOneDynamicSourceAtMost(t *testing.T) {
	if _, err := NewSchema(Source{Name: "a", Metrics: []Desc{dLow}, Dynamic: true},
		Source{Name: "b", Metrics: []Desc{dHigh}, Dynamic: true}); err == nil {
		t.Error("two dynamic sources accepted")
	}
}
