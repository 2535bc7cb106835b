package engine

import "github.com/pmdahostcache/pmdahostcache/cache"

// Row declares one metric with named fields, as a line of a table:
//
//	{Name: "hostcache.kernel.all.load", Cluster: clusterLoad, Item: 0,
//		Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomLoadavg},
//
// Name is the full PMNS name, written out so that a search for it finds
// the declaration; tools/genmetrics indexes every metric by it. InDom is
// always given: instance domain 0 is a real one (the collectors'), so a
// single value says cache.InDomNone. Units left out means none (cache.UnitsNone).
type Row struct {
	Name    string
	Cluster uint32
	Item    uint32
	Type    cache.Type
	Sem     cache.Sem
	Units   cache.Units
	InDom   cache.InDomID
	// Peaks asks for hostcache.max.X and hostcache.min.X (WithPeaks).
	Peaks bool
}

// Desc is the row's descriptor.
func (r Row) Desc() cache.Desc {
	d := Metric(r.Name, r.Cluster, r.Item, r.Type, r.Sem, r.Units, r.InDom)
	d.Peaks = r.Peaks
	return d
}

// Descs gives the descriptors of a table of rows, in its order.
func Descs(rows []Row) []cache.Desc {
	out := make([]cache.Desc, len(rows))
	for i, r := range rows {
		out[i] = r.Desc()
	}
	return out
}
