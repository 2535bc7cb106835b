package standin

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func linuxByName() map[string]LinuxMetric {
	out := map[string]LinuxMetric{}
	for _, m := range LinuxTable() {
		out[m.Name] = m
	}
	return out
}

func TestEveryMetricHasItsOwnDomain60PMID(t *testing.T) {
	s, x, _ := hostcacheIdentity(t)
	seen := map[uint32]string{}
	for _, d := range s.Descs() {
		wire := x.PMID(d.ID)
		if wire>>22 != Domain {
			t.Errorf("%s: wire PMID %#x is in domain %d", d.Name, wire, wire>>22)
		}
		if other, dup := seen[wire]; dup {
			t.Errorf("%s and %s share wire PMID %#x", d.Name, other, wire)
		}
		seen[wire] = d.Name
		if back, ok := x.Metric(wire); !ok || back != d.ID {
			t.Errorf("%s: %s -> %#x -> %s, %v", d.Name, d.ID, wire, back, ok)
		}
	}
	if x.PMID(cache.NewMetricID(4000, 1)) != PMIDNull {
		t.Error("an id the schema does not hold has a wire PMID")
	}
	if _, ok := x.Metric(WirePMID(4000, 1)); ok {
		t.Error("a wire PMID nothing answers names a metric")
	}
	if _, ok := x.Metric(s.Descs()[0].ID.Cluster()<<10 | s.Descs()[0].ID.Item()); ok {
		t.Error("a PMID of domain 0 names a metric")
	}
}

func TestTwinsAnswerAsPmdalinux(t *testing.T) {
	s, x, problems := hostcacheIdentity(t)
	linux := linuxByName()
	byName := 0
	for _, d := range s.Descs() {
		wire, name := x.PMID(d.ID), x.WireName(d.Name)
		m, named := linux[strings.TrimPrefix(d.Name, prefix)]
		if named {
			byName++
		}
		if !x.IsTwin(d.Name) {
			if wire != WirePMID(d.ID.Cluster()+Shift, d.ID.Item()) || name != d.Name {
				t.Errorf("%s (%s): not a twin, yet answers as %#x %s", d.Name, d.ID, wire, name)
			}
			continue
		}
		if !named || wire != m.PMID() || name != m.Name {
			t.Errorf("%s: twin answers as %#x %s, pmdalinux's is %#x %s", d.Name, wire, name, m.PMID(), m.Name)
		}
		if d.Type != m.Type || d.Sem != m.Sem || d.Units != m.Units || x.InDom(d.InDom) != wireInDomOf(m) {
			t.Errorf("%s: twin's descriptor %v/%v/%#x/%#x, pmdalinux's %v/%v/%#x/%#x", d.Name,
				d.Type, d.Sem, uint32(d.Units), x.InDom(d.InDom), m.Type, m.Sem, uint32(m.Units), wireInDomOf(m))
		}
	}
	demoted := 0
	for _, p := range problems {
		if p.Kind != KindInDomShared {
			demoted++
		}
	}
	t.Logf("%d pmdalinux metrics, %d hostcache metrics named after one, %d twins, %d named ones demoted",
		len(linux), byName, x.Twins(), demoted)
	if x.Twins()+demoted != byName {
		t.Errorf("%d twins and %d demoted, but %d metrics are named after pmdalinux's", x.Twins(), demoted, byName)
	}
}

func wireInDomOf(m LinuxMetric) uint32 {
	if m.InDom == cache.InDomNone {
		return InDomNull
	}
	return WireInDom(m.InDom)
}

func TestInstanceDomainsRoundTrip(t *testing.T) {
	s, x, _ := hostcacheIdentity(t)
	seen := map[uint32]cache.InDomID{}
	for _, in := range s.InDoms() {
		wire := x.InDom(in.ID)
		if wire>>22 != Domain {
			t.Errorf("domain %d (%s): wire %#x is in domain %d", in.ID, in.Name, wire, wire>>22)
		}
		if other, dup := seen[wire]; dup {
			t.Errorf("domains %d and %d share wire domain %#x", in.ID, other, wire)
		}
		seen[wire] = in.ID
		if back, ok := x.InDomOf(wire); !ok || back != in.ID {
			t.Errorf("domain %d -> %#x -> %d, %v", in.ID, wire, back, ok)
		}
	}
	if x.InDom(cache.InDomNone) != InDomNull {
		t.Errorf("no instance domain answers as %#x", x.InDom(cache.InDomNone))
	}
	if _, ok := x.InDomOf(InDomNull); ok {
		t.Error("PM_INDOM_NULL names an internal domain")
	}
}

func TestLookupsDoNotAllocate(t *testing.T) {
	s, x, _ := hostcacheIdentity(t)
	d := s.Descs()[len(s.Descs())/2]
	wire, wireInDom := x.PMID(d.ID), x.InDom(1)
	allocs := testing.AllocsPerRun(100, func() {
		_ = x.PMID(d.ID)
		_, _ = x.Metric(wire)
		_ = x.InDom(1)
		_, _ = x.InDomOf(wireInDom)
		_ = x.WireName("hostcache.kernel.all.load")
		_ = x.WireName(d.Name)
	})
	if allocs != 0 {
		t.Errorf("lookups allocate %v times", allocs)
	}
}
