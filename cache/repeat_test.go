package cache

import (
	"math"
	"slices"
	"testing"
	"time"
)

// sample builds one part of source "two" with the given values and table.
func sample(t *testing.T, b *Builder, in *Instances, vals ...float64) *Part {
	t.Helper()
	b.Reset(time.Now())
	b.SetInDom(7, in)
	for i, v := range vals {
		b.SetDouble(dC.ID, uint32(i), v)
	}
	p, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A sample that sets what the one before set shares its arrays; any
// difference in a value, an instance or a table builds a part of its own.
func TestUnchangedSampleRepeatsThePartBefore(t *testing.T) {
	s := testSchema(t)
	b := s.NewBuilder(1, time.Now())
	in := NewInstances([]Instance{{ID: 0, Name: "x"}, {ID: 1, Name: "y"}})
	first := sample(t, b, in, 1, 2)
	if first.Repeats() {
		t.Fatal("the first part repeats nothing")
	}
	again := sample(t, b, in, 1, 2)
	if !again.Repeats() || &again.all[0] != &first.all[0] {
		t.Fatal("the same values did not share the part before's array")
	}
	if got := again.AppendValues(nil, mustIndex(t, s, dC)); len(got) != 2 || got[1].Bits != FloatValue(1, 2).Bits {
		t.Fatalf("repeated part reads %+v", got)
	}
	for name, p := range map[string]*Part{
		"a value":    sample(t, b, in, 1, 3),
		"the layout": sample(t, b, in, 1),
		"a table":    sample(t, b, NewInstances([]Instance{{ID: 0, Name: "x"}}), 1),
	} {
		if p.Repeats() {
			t.Errorf("a change of %s was taken for a repeat", name)
		}
	}
}

// New values over the same instance table keep the table the part before
// holds, without allocating for it; another table is the part's own.
func TestSameTablesShared(t *testing.T) {
	s := testSchema(t)
	b := s.NewBuilder(1, time.Now())
	in := NewInstances([]Instance{{ID: 0, Name: "x"}, {ID: 1, Name: "y"}})
	first := sample(t, b, in, 1, 2)
	moved := sample(t, b, in, 3, 4)
	if moved.Repeats() || &moved.indoms[0] != &first.indoms[0] {
		t.Error("new values over the same table did not share the table")
	}
	other := NewInstances([]Instance{{ID: 0, Name: "x"}})
	changed := sample(t, b, other, 5)
	if got, ok := changed.InDom(7); !ok || got != other {
		t.Errorf("changed part's table is %v, %v", got, ok)
	}
	if got, _ := moved.InDom(7); got != in {
		t.Error("a published part's table changed under it")
	}
	v := 6.0
	n := testing.AllocsPerRun(20, func() {
		b.Reset(time.Now())
		b.SetInDom(7, other)
		v++ // a new value each time: never a repeat
		b.SetDouble(dC.ID, 0, v)
		if _, err := b.Part(); err != nil {
			t.Fatal(err)
		}
	})
	if n > 3 { // the part, its values and their index
		t.Errorf("%v allocations per sample over the same table, want 3", n)
	}
}

// Again repeats the previous part without any value set, and refuses
// when there is no good previous part: the first sample, or after a
// sample whose part failed.
func TestAgainNeedsAGoodPartBefore(t *testing.T) {
	s := testSchema(t)
	b := s.NewBuilder(0, time.Now())
	b.Reset(time.Now())
	if b.Again() {
		t.Fatal("Again before any part")
	}
	b.SetU64(dA.ID, InstNone, 5)
	first, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	b.Reset(time.Now())
	if !b.Again() {
		t.Fatal("Again refused after a good part")
	}
	p, err := b.Part()
	if err != nil || !p.Repeats() || p.NumsAt(mustIndex(t, s, dA))[0].Bits != 5 || p == first {
		t.Fatalf("Again gave %+v, %v", p, err)
	}
	// A failed part: the next sample may not repeat what came before it.
	b.Reset(time.Now())
	b.SetDouble(dA.ID, InstNone, 1)
	if _, err := b.Part(); err == nil {
		t.Fatal("a wrong type was accepted")
	}
	b.Reset(time.Now())
	if b.Again() {
		t.Fatal("Again accepted after a failed part")
	}
	b.SetU64(dA.ID, InstNone, 5)
	if p, err := b.Part(); err != nil || p.Repeats() {
		t.Fatalf("after a failure the same values must be built afresh: %v %v", p.Repeats(), err)
	}
	// Once values are set, Again is refused: they would be lost.
	b.Reset(time.Now())
	b.SetU64(dA.ID, InstNone, 6)
	if b.Again() {
		t.Fatal("Again accepted after values were set")
	}
}

func mustIndex(t *testing.T, s *Schema, d Desc) int {
	t.Helper()
	i, ok := s.Index(d.ID)
	if !ok {
		t.Fatalf("%s not in the schema", d.Name)
	}
	return i
}

// A sample whose values differ only late is grouped from the part
// before's values, found equal so far: the new part reads what was set,
// and the part before still reads what it held.
func TestLateChangeLeavesThePartBeforeAlone(t *testing.T) {
	s := testSchema(t)
	b := s.NewBuilder(1, time.Now())
	in := NewInstances([]Instance{{ID: 0, Name: "x"}, {ID: 1, Name: "y"}, {ID: 2, Name: "z"}})
	first := sample(t, b, in, 1, 2, 3)
	second := sample(t, b, in, 1, 2, 4)
	if second.Repeats() {
		t.Fatal("a changed value was taken for a repeat")
	}
	read := func(p *Part) []float64 {
		var out []float64
		for _, v := range p.AppendValues(nil, mustIndex(t, s, dC)) {
			out = append(out, float64(math.Float32frombits(uint32(v.Bits))))
		}
		return out
	}
	if got := read(second); !slices.Equal(got, []float64{1, 2, 4}) {
		t.Errorf("the new part reads %v, want [1 2 4]", got)
	}
	if got := read(first); !slices.Equal(got, []float64{1, 2, 3}) {
		t.Errorf("the part before reads %v after the next was built, want [1 2 3]", got)
	}
}
