package standin

import (
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A small pmdalinux: two CPU metrics in 60.0, a load average in 60.2 and
// a singular counter.
var smallTable = []Metric{
	{"kernel.percpu.cpu.user", 0, 0, 0, cache.TypeU64, cache.SemCounter, cache.UnitsMSec},
	{"kernel.percpu.cpu.sys", 0, 2, 0, cache.TypeU64, cache.SemCounter, cache.UnitsMSec},
	{"kernel.all.load", 2, 0, 2, cache.TypeFloat, cache.SemInstant, cache.UnitsNone},
	{"kernel.all.pswitch", 0, 13, cache.InDomNone, cache.TypeU64, cache.SemCounter, cache.UnitsCount},
}

func desc(name string, cluster, item uint32, t cache.Type, sem cache.Sem, u cache.Units, in cache.InDomID) cache.Desc {
	return cache.Desc{Name: name, ID: cache.NewMetricID(cluster, item), Type: t, Sem: sem, Units: u, InDom: in}
}

func kinds(ps []Problem) map[string]Kind {
	out := map[string]Kind{}
	for _, p := range ps {
		out[p.Name] = p.Kind
	}
	return out
}

func TestADifferentDescriptorIsNoTwin(t *testing.T) {
	descs := []cache.Desc{
		desc("hostcache.kernel.percpu.cpu.user", 1, 20, cache.TypeU32, cache.SemCounter, cache.UnitsMSec, 1),
		desc("hostcache.kernel.percpu.cpu.sys", 1, 22, cache.TypeU64, cache.SemInstant, cache.UnitsMSec, 1),
		desc("hostcache.kernel.all.load", 3, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsCount, 2),
		desc("hostcache.kernel.all.pswitch", 1, 40, cache.TypeU64, cache.SemCounter, cache.UnitsCount, 3),
	}
	x, problems, err := New(linuxWith(smallTable), descs, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Kind{
		"hostcache.kernel.percpu.cpu.user": KindType, "hostcache.kernel.percpu.cpu.sys": KindSem,
		"hostcache.kernel.all.load": KindUnits, "hostcache.kernel.all.pswitch": KindInDom,
	}
	got := kinds(problems)
	for name, k := range want {
		if got[name] != k {
			t.Errorf("%s: problem %q, want %q (all: %v)", name, got[name], k, problems)
		}
	}
	for _, d := range descs {
		if x.IsTwin(d.Name) || x.PMID(d.ID) != PMIDNull {
			t.Errorf("%s: twin %v, PMID %#x", d.Name, x.IsTwin(d.Name), x.PMID(d.ID))
		}
	}
	if x.InDom(1) != InDomNull {
		t.Errorf("a domain without twins answers as %#x", x.InDom(1))
	}
}

func TestOnlyTwinsAnswerInDomain60(t *testing.T) {
	descs := []cache.Desc{
		desc("hostcache.kernel.percpu.cpu.user", 1, 20, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 1),
		desc("hostcache.rate.kernel.percpu.cpu.user", 1, 532, cache.TypeDouble, cache.SemInstant, cache.UnitsNone, 1),
		desc("hostcache.max.kernel.all.load", 1027, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 2),
		desc("hostcache.kernel.all.load", 3, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 2),
		desc("hostcache.kernel.all.pswitch", 1, 40, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	}
	x, problems, err := New(linuxWith(smallTable), descs, []cache.InDomDesc{{ID: 0, Name: "collectors"}})
	if err != nil || len(problems) != 0 {
		t.Fatalf("problems %v, error %v", problems, err)
	}
	want := map[string]uint32{
		"hostcache.kernel.percpu.cpu.user":      Linux().WirePMID(0, 0),
		"hostcache.rate.kernel.percpu.cpu.user": PMIDNull,
		"hostcache.max.kernel.all.load":         PMIDNull,
		"hostcache.kernel.all.load":             Linux().WirePMID(2, 0),
		"hostcache.kernel.all.pswitch":          Linux().WirePMID(0, 13),
	}
	for _, d := range descs {
		if got := x.PMID(d.ID); got != want[d.Name] {
			t.Errorf("%s: %#x, want %#x", d.Name, got, want[d.Name])
		}
		back, ok := x.Metric(want[d.Name])
		if twin := want[d.Name] != PMIDNull; ok != twin || (twin && back != d.ID) {
			t.Errorf("%s: %#x names %s %v", d.Name, want[d.Name], back, ok)
		}
		// Its hostcache name's PMID of the stand-in before: no more.
		if _, ok := x.Metric(Linux().WirePMID(d.ID.Cluster()+Shift, d.ID.Item())); ok {
			t.Errorf("%s answers in domain 60 past pmdalinux's clusters", d.Name)
		}
	}
	if x.WireName("hostcache.kernel.all.load") != "kernel.all.load" || x.WireName("hostcache.max.kernel.all.load") != "hostcache.max.kernel.all.load" {
		t.Error("wire names are not pmdalinux's for twins and ours for the rest")
	}
	for in, wire := range map[cache.InDomID]uint32{0: InDomNull, 1: Linux().WireInDom(0), 2: Linux().WireInDom(2)} {
		if got := x.InDom(in); got != wire {
			t.Errorf("domain %d: %#x, want %#x", in, got, wire)
		}
	}
	if _, ok := x.InDomOf(Linux().WireInDom(Shift)); ok {
		t.Error("a domain without twins answers in domain 60")
	}
}

func TestOneDomainTakesTheMostTwinsPmdalinuxDomain(t *testing.T) {
	// Domain 1 holds a CPU twin and a load twin: pmdalinux puts them in 60.0
	// and 60.2. A tie goes to the lower serial, 60.0; the load is demoted.
	descs := []cache.Desc{
		desc("hostcache.kernel.percpu.cpu.user", 1, 20, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 1),
		desc("hostcache.kernel.all.load", 3, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 1),
	}
	x, problems, err := New(linuxWith(smallTable), descs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Kind != KindInDom || problems[0].Name != "hostcache.kernel.all.load" {
		t.Fatalf("problems %v, want the load's indom", problems)
	}
	if !x.IsTwin("hostcache.kernel.percpu.cpu.user") || x.IsTwin("hostcache.kernel.all.load") || x.InDom(1) != Linux().WireInDom(0) {
		t.Errorf("twins %d, domain 1 as %#x", x.Twins(), x.InDom(1))
	}
}

func TestTwoDomainsShareOneAsHolderAndAlias(t *testing.T) {
	// Domains 1 and 5 both hold CPU twins; 5 has two and holds 60.0, and 1
	// answers as its alias: its twin stays a twin, in 60.0.
	table := append(slices.Clone(smallTable), Metric{"kernel.percpu.cpu.idle", 0, 3, 0, cache.TypeU64, cache.SemCounter, cache.UnitsMSec})
	descs := []cache.Desc{
		desc("hostcache.kernel.percpu.cpu.sys", 1, 22, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 1),
		desc("hostcache.kernel.percpu.cpu.user", 9, 20, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 5),
		desc("hostcache.kernel.percpu.cpu.idle", 9, 23, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, 5),
	}
	x, problems, err := New(linuxWith(table), descs, []cache.InDomDesc{{ID: 1, Name: "a"}, {ID: 5, Name: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	got := kinds(problems)
	if len(problems) != 1 || got["1 (a)"] != KindInDomShared {
		t.Fatalf("problems %v, want domain 1's sharing only", problems)
	}
	if x.InDom(5) != Linux().WireInDom(0) || x.InDom(1) != Linux().WireInDom(0) || x.Twins() != 3 {
		t.Errorf("domain 5 as %#x, 1 as %#x, %d twins", x.InDom(5), x.InDom(1), x.Twins())
	}
	if h, ok := x.Holder(1); !ok || h != 5 {
		t.Errorf("domain 1's holder %d, %v; want 5", h, ok)
	}
	if _, ok := x.Holder(5); ok {
		t.Error("the holder has a holder")
	}
	if in, ok := x.InDomOf(Linux().WireInDom(0)); !ok || in != 5 {
		t.Errorf("60.0 names domain %d, %v; want the holder 5", in, ok)
	}
}

func TestImpossibleMappingsAreErrors(t *testing.T) {
	cases := map[string]struct {
		descs []cache.Desc
		table []Metric
	}{
		"a pmdalinux cluster at the shift": {
			nil, []Metric{{"x", Shift, 0, cache.InDomNone, cache.TypeU64, cache.SemCounter, cache.UnitsCount}}},
		"a pmdalinux domain at the shift": {
			nil, []Metric{{"x", 0, 0, Shift, cache.TypeU64, cache.SemCounter, cache.UnitsCount}}},
		"two pmdalinux names on one PMID": {
			nil, append(slices.Clone(smallTable), Metric{"y", 2, 0, cache.InDomNone, cache.TypeU64, cache.SemCounter, cache.UnitsCount})},
	}
	for what, c := range cases {
		if _, _, err := New(linuxWith(c.table), c.descs, nil); err == nil {
			t.Errorf("%s: no error", what)
		}
	}
}

// A metric or domain placed while the agent runs (a dynamic source's:
// the MMV files') is no twin: it answers in hostcache's domain only.
func TestNumberingLeavesUnknownIDsOut(t *testing.T) {
	descs := []cache.Desc{desc("hostcache.kernel.all.load", 3, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 2)}
	x, _, err := New(linuxWith(smallTable), descs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if wire := x.PMID(cache.NewMetricID(800, 7)); wire != PMIDNull {
		t.Errorf("a new metric at %#x, want none", wire)
	}
	for _, wire := range []uint32{Linux().WirePMID(800+Shift, 7), Linux().WirePMID(100, 1)} {
		if id, ok := x.Metric(wire); ok {
			t.Errorf("%#x names %s", wire, id)
		}
	}
	if w := x.InDom(4100); w != InDomNull {
		t.Errorf("a new domain at %#x, want none", w)
	}
	if in, ok := x.InDomOf(Linux().WireInDom(4100 + Shift)); ok {
		t.Errorf("a domain past the shift names %d", in)
	}
}

// linuxWith is pmdalinux with another table.
func linuxWith(table []Metric) Agent {
	a := Linux()
	a.table = func() []Metric { return table }
	return a
}
