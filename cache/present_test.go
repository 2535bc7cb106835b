package cache

import (
	"slices"
	"testing"
	"time"
)

// A fetch that knows which processes exist now gets no value of one gone
// since the sample, whatever its access; earlier values in dst and other
// domains are untouched.
func TestPresentLeavesOutTheGone(t *testing.T) {
	snap, descs := accessSnapshot(t)
	var p Present
	p.Set(9, []uint32{5, 100})
	r := Request{Snap: snap, Now: time.Now(), Client: NoClient, Who: Credentials{Known: true}, Present: &p}
	for i := range descs {
		dst := r.AppendValues([]Value{{Inst: 1}}, &descs[i])
		var got []uint32
		for _, v := range dst {
			got = append(got, v.Inst)
		}
		if !slices.Equal(got, []uint32{1, 100}) {
			t.Errorf("%s: instances %v, want the earlier 1, then 100 alone", descs[i].Name, got)
		}
	}
	if !p.Has(9, 5) || p.Has(9, 1) || !p.Has(10, 1) {
		t.Error("Has: want 5 listed, 1 gone, another domain's instance kept")
	}
	var none *Present
	if !none.Has(9, 1) {
		t.Error("a nil Present must know nothing and keep everything")
	}
	var q Present
	q.Merge(&p)
	if q.Has(9, 1) || !q.Has(9, 100) {
		t.Error("Merge did not carry domain 9's list")
	}
}

// Values in instance order and out of it are kept alike.
func TestPresentKeepsInAnyOrder(t *testing.T) {
	var p Present
	p.Set(1, []uint32{2, 5, 9})
	in := []Value{{Inst: 2}, {Inst: 3}, {Inst: 5}, {Inst: 9}, {Inst: 10}, {Inst: 5}, {Inst: 1}, {Inst: 9}}
	var got []uint32
	for _, v := range p.keep(in, 0, 1) {
		got = append(got, v.Inst)
	}
	if want := []uint32{2, 5, 9, 5, 9}; !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}
