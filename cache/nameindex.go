package cache

import "hash/maphash"

// nameIndex finds an instance's position in its table by name. It holds
// positions only, no pointers, so the garbage collector never scans it:
// a large host's per-CPU interrupt counts are hundreds of thousands of
// instances, and a map keyed by their names was scanned again at every
// collection, the two-minute one of an agent nobody reads included.
type nameIndex struct {
	seed  maphash.Seed
	slots []int32 // 1 + the position of a name hashed here; 0 is empty
	mask  uint64
}

// newNameIndex indexes list, whose names are unique (printableNames
// made them so). Open addressing at most half full keeps probes short.
func newNameIndex(list []Instance) nameIndex {
	size := 1
	for size < 2*len(list) {
		size <<= 1
	}
	x := nameIndex{seed: maphash.MakeSeed(), slots: make([]int32, size), mask: uint64(size - 1)}
	for i := range list {
		h := x.home(list[i].Name)
		for x.slots[h] != 0 {
			h = (h + 1) & x.mask
		}
		x.slots[h] = int32(i + 1)
	}
	return x
}

func (x *nameIndex) home(name string) uint64 { return maphash.String(x.seed, name) & x.mask }

// find returns the position of name in list, the table x was built from.
func (x *nameIndex) find(list []Instance, name string) (int, bool) {
	for h := x.home(name); x.slots[h] != 0; h = (h + 1) & x.mask {
		if i := int(x.slots[h] - 1); list[i].Name == name {
			return i, true
		}
	}
	return 0, false
}
