package cache

import (
	"fmt"
	"slices"
	"testing"
)

// A table in id order is searched, another is mapped: both answer every
// lookup alike, for ids held, absent, below and above all of them.
func TestInstancesInAndOutOfIDOrder(t *testing.T) {
	var list []Instance
	for i := range 500 {
		id := uint32(3*i + 2)
		list = append(list, Instance{ID: id, Name: fmt.Sprintf("%06d cmd%d", id, i%7), Owner: Owner{UID: id}})
	}
	shuffled := slices.Clone(list)
	slices.Reverse(shuffled)
	ordered, mapped := NewInstances(list), NewInstances(shuffled)
	if ordered.byID != nil || mapped.byID == nil {
		t.Fatalf("the table in id order holds a map (%v); the other holds none (%v)",
			ordered.byID != nil, mapped.byID == nil)
	}
	for id := uint32(0); id < 3*500+5; id++ {
		n1, ok1 := ordered.Name(id)
		n2, ok2 := mapped.Name(id)
		held := id%3 == 2 && id < 3*500
		if ok1 != held || ok2 != held || n1 != n2 {
			t.Fatalf("id %d: %q %v and %q %v, held %v", id, n1, ok1, n2, ok2, held)
		}
		if held && (ordered.Owner(id).UID != id || mapped.Owner(id).UID != id) {
			t.Fatalf("id %d: owners %+v and %+v", id, ordered.Owner(id), mapped.Owner(id))
		}
	}
	for _, name := range []string{"000005", "000005 cmd1", "5", "000004", "cmd1"} {
		id1, ok1 := ordered.Lookup(name)
		id2, ok2 := mapped.Lookup(name)
		if id1 != id2 || ok1 != ok2 {
			t.Errorf("Lookup(%q): %d %v and %d %v", name, id1, ok1, id2, ok2)
		}
	}
	if id, ok := ordered.Lookup("000005"); !ok || id != 5 {
		t.Errorf("Lookup by the first word: %d %v, want 5", id, ok)
	}
}

// Two names that share their first word make it find neither.
func TestInstancesSharedFirstWord(t *testing.T) {
	in := NewInstances([]Instance{{ID: 1, Name: "a x"}, {ID: 2, Name: "a y"}, {ID: 3, Name: "b z"}})
	if _, ok := in.Lookup("a"); ok {
		t.Error("a word two names share found one")
	}
	if id, ok := in.Lookup("b"); !ok || id != 3 {
		t.Errorf("Lookup(b): %d %v", id, ok)
	}
}
