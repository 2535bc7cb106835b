package mmvfiles

import (
	"slices"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// mmvLabels are a file's labels (version 3) by what they attach to. The
// cache has no cluster labels: the file's cluster labels are every
// metric's, under its own item labels, as PCP's label hierarchy puts an
// item's label above its cluster's of the same name.
type mmvLabels struct {
	cluster   []cache.Label
	items     map[uint32][]cache.Label
	indoms    map[uint32][]cache.Label
	instances map[mmvInstKey][]cache.Label
}

// mmvInstKey is an instance of a domain, by serial.
type mmvInstKey struct {
	serial uint32
	inst   int32
}

// mmvLabelsOf sorts the file's labels by name within each target.
func mmvLabelsOf(f *mmv.File) mmvLabels {
	ls := mmvLabels{items: map[uint32][]cache.Label{}, indoms: map[uint32][]cache.Label{},
		instances: map[mmvInstKey][]cache.Label{}}
	for _, l := range f.Labels {
		c := cache.Label{Name: l.Name, Value: l.Value, Optional: l.Optional}
		switch l.Kind {
		case mmv.LabelCluster:
			ls.cluster = mmvWithLabel(ls.cluster, c)
		case mmv.LabelItem:
			ls.items[l.Identity] = mmvWithLabel(ls.items[l.Identity], c)
		case mmv.LabelIndom:
			ls.indoms[l.Identity] = mmvWithLabel(ls.indoms[l.Identity], c)
		case mmv.LabelInstances:
			k := mmvInstKey{l.Identity, l.Instance}
			ls.instances[k] = mmvWithLabel(ls.instances[k], c)
		}
	}
	return ls
}

// item is the labels of the metric numbered item: the cluster's, then
// its own in their place.
func (ls mmvLabels) item(item uint32) []cache.Label {
	out := slices.Clone(ls.cluster)
	for _, l := range ls.items[item] {
		out = mmvWithLabel(out, l)
	}
	return out
}

// mmvWithLabel puts l in ls, sorted by name, replacing one of its name.
func mmvWithLabel(ls []cache.Label, l cache.Label) []cache.Label {
	i, found := slices.BinarySearchFunc(ls, l.Name,
		func(x cache.Label, name string) int { return strings.Compare(x.Name, name) })
	if found {
		ls[i] = l
		return ls
	}
	return slices.Insert(ls, i, l)
}
