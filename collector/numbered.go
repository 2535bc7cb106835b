package collector

import (
	"strconv"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// numbered is an instance domain of numbered kernel objects ("cpu3",
// "node1", id the number, as pmdalinux names them) and what a collector
// keeps for each member (its open files). The table and the members' state
// are rebuilt only when the set of numbers changes: a sample of an
// unchanged set costs one comparison.
type numbered[T any] struct {
	prefix  string // "cpu", "node"
	members map[int]T
	list    *cache.Instances
}

// update returns the table for ids, calling open for each member new
// since the last call (name is its instance name); members that left are
// dropped.
func (n *numbered[T]) update(ids []int, open func(id int, name string) T) *cache.Instances {
	same := n.list != nil && len(ids) == len(n.members)
	for _, id := range ids {
		_, ok := n.members[id]
		same = same && ok
	}
	if same {
		return n.list
	}
	members := make(map[int]T, len(ids))
	list := make([]cache.Instance, 0, len(ids))
	for _, id := range ids {
		name := n.prefix + strconv.Itoa(id)
		list = append(list, cache.Instance{ID: uint32(id), Name: name})
		if m, ok := n.members[id]; ok {
			members[id] = m
			continue
		}
		members[id] = open(id, name)
	}
	n.members, n.list = members, cache.NewInstances(list)
	return n.list
}

// get returns member id's state.
func (n *numbered[T]) get(id int) T { return n.members[id] }
