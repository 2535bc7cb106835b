package pmda

import (
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestSchemaNamespace(t *testing.T) {
	x := cache.Desc{Name: "hostcache.mmv.app.x", ID: cache.NewMetricID(768, 1), Type: cache.TypeU64, Sem: cache.SemCounter, InDom: cache.InDomNone}
	z := cache.Desc{Name: "hostcache.mmv.app.y.z", ID: cache.NewMetricID(768, 2), Type: cache.TypeU64, Sem: cache.SemInstant, InDom: cache.InDomNone}
	static := cache.Desc{Name: "hostcache.kernel.all.load", ID: cache.NewMetricID(3, 0), Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: cache.InDomNone}
	schema, err := cache.NewSchema(cache.Source{Name: "s", Metrics: []cache.Desc{static}},
		cache.Source{Name: "mmv", Metrics: []cache.Desc{x, z}, Dynamic: true})
	if err != nil {
		t.Fatal(err)
	}
	ids := DomainNumbering(396)
	ns := NewSchemaNamespace(cache.NewFront(schema), ids, []string{"hostcache.mmv", "hostcache.rate.mmv"})

	if pmid, ok := ns.PMID("hostcache.mmv.app.x"); !ok || pmid != ids.PMID(x.ID) {
		t.Errorf("PMID of a leaf: %#x %v", pmid, ok)
	}
	for _, name := range []string{"hostcache.mmv.app", "hostcache.kernel.all.load", "hostcache.mmv.none"} {
		if _, ok := ns.PMID(name); ok {
			t.Errorf("%s has a PMID: a node, a static name or nothing", name)
		}
	}
	if names, ok := ns.Names(ids.PMID(z.ID)); !ok || !slices.Equal(names, []string{z.Name}) {
		t.Errorf("Names: %v %v", names, ok)
	}
	if _, ok := ns.Names(ids.PMID(static.ID)); ok {
		t.Error("a static metric's PMID named below a dynamic root")
	}
	kids, ok := ns.Children("hostcache.mmv.app")
	if !ok || !slices.Equal(kids, []Child{{Name: "x", Leaf: true}, {Name: "y", Leaf: false}}) {
		t.Errorf("children of a node: %v %v", kids, ok)
	}
	if kids, ok := ns.Children("hostcache.mmv.app.x"); !ok || len(kids) != 0 {
		t.Errorf("children of a leaf: %v %v", kids, ok)
	}
	if kids, ok := ns.Children("hostcache.rate.mmv"); !ok || len(kids) != 0 {
		t.Errorf("an empty root: %v %v, want known and empty", kids, ok)
	}
	if _, ok := ns.Children("hostcache.mmv.none"); ok {
		t.Error("an unknown name has children")
	}
	if all, ok := ns.Traverse("hostcache.mmv"); !ok || !slices.Equal(all, []string{x.Name, z.Name}) {
		t.Errorf("traverse of a root: %v %v", all, ok)
	}
	if all, ok := ns.Traverse(x.Name); !ok || !slices.Equal(all, []string{x.Name}) {
		t.Errorf("traverse of a leaf: %v %v", all, ok)
	}
}
