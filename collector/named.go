package collector

import (
	"cmp"
	"slices"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// named is an instance domain of kernel objects known by name (slab
// caches, serial ports), with ids from a persistent map, listed in id
// order as pmdalinux lists them. The table is rebuilt only when the names
// change: a sample of an unchanged file costs one comparison.
type named struct {
	ids   *cache.IDMap
	names []string // the names last published, in file order
	insts []uint32 // their ids, in the same order
	list  *cache.Instances
}

// update returns the table for the n names nameOf gives, in file order.
func (t *named) update(n int, nameOf func(i int) string) *cache.Instances {
	same := t.list != nil && n == len(t.names)
	for i := 0; same && i < n; i++ {
		same = nameOf(i) == t.names[i]
	}
	if same {
		return t.list
	}
	t.names, t.insts = t.names[:0], t.insts[:0]
	list := make([]cache.Instance, 0, n)
	for i := 0; i < n; i++ {
		name := nameOf(i)
		id := t.ids.ID(name)
		t.names, t.insts = append(t.names, name), append(t.insts, id)
		list = append(list, cache.Instance{ID: id, Name: name})
	}
	slices.SortFunc(list, func(a, b cache.Instance) int { return cmp.Compare(a.ID, b.ID) })
	t.list = cache.NewInstances(list)
	return t.list
}
