package cache

import (
	"strconv"
	"testing"
)

// A table as large as a big host's per-CPU interrupt counts finds each of
// its names, and no name it does not hold, through the pointer-free index.
func TestNameIndexFindsEveryName(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000, 70000} {
		list := make([]Instance, n)
		for i := range list {
			list[i] = Instance{ID: uint32(i * 3), Name: "LOC::cpu" + strconv.Itoa(i)}
		}
		in := NewInstances(list)
		for i := range list {
			if id, ok := in.Lookup(list[i].Name); !ok || id != uint32(i*3) {
				t.Fatalf("%d names: Lookup(%q) = %d %v, want %d", n, list[i].Name, id, ok, i*3)
			}
		}
		for _, absent := range []string{"", "LOC::cpu", "LOC::cpu" + strconv.Itoa(n), "NMI::cpu0"} {
			if id, ok := in.Lookup(absent); ok {
				t.Errorf("%d names: Lookup(%q) found %d", n, absent, id)
			}
		}
	}
}

// The first word finds a spaced name only when no other name shares it.
func TestLookupByWordOnlyWhenUnambiguous(t *testing.T) {
	in := NewInstances([]Instance{{ID: 1, Name: "a b"}, {ID: 2, Name: "a c"}, {ID: 3, Name: "d e"}, {ID: 4, Name: "d"}})
	if id, ok := in.Lookup("a"); ok {
		t.Errorf(`Lookup("a") = %d, want none: "a b" and "a c" share the word`, id)
	}
	if id, ok := in.Lookup("d"); !ok || id != 4 {
		t.Errorf(`Lookup("d") = %d %v, want the whole name's 4`, id, ok)
	}
	if id, ok := in.Lookup("d e"); !ok || id != 3 {
		t.Errorf(`Lookup("d e") = %d %v, want 3`, id, ok)
	}
}
