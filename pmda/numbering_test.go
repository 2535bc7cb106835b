package pmda

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// standInIDs numbers the test store as a stand-in for domain 60 would:
// t.count as another agent's 60.7.9 and the load domain as its 60.5;
// everything else 256 clusters (serials) past its own.
type standInIDs struct{}

const (
	standInCount = 60<<22 | 7<<10 | 9
	standInLoad  = 60<<22 | 5
)

func (standInIDs) PMID(id cache.MetricID) uint32 {
	if id == tCount.ID {
		return standInCount
	}
	return 60<<22 | (id.Cluster()+256)<<10 | id.Item()
}

func (standInIDs) Metric(wire uint32) (cache.MetricID, bool) {
	switch {
	case wire == standInCount:
		return tCount.ID, true
	case wire>>22 != 60 || (wire>>10)&0xfff < 256:
		return 0, false
	}
	return cache.NewMetricID((wire>>10)&0xfff-256, wire&0x3ff), true
}

func (standInIDs) InDom(id cache.InDomID) uint32 {
	switch id {
	case cache.InDomNone:
		return uint32(cache.InDomNone)
	case 2:
		return standInLoad
	}
	return 60<<22 | uint32(id) + 256
}

func (standInIDs) InDomOf(wire uint32) (cache.InDomID, bool) {
	if wire == standInLoad {
		return 2, true
	}
	return 0, false
}

// Holder makes domain 3, where the test store has none, an alias of 2.
func (standInIDs) Holder(id cache.InDomID) (cache.InDomID, bool) { return 2, id == 3 }

// Under another numbering every PDU speaks its numbers: descriptors,
// fetches, instances, profiles, text and labels; the agent's own numbers
// are unknown.
func TestServerAnswersUnderAnotherNumbering(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.Numbering = standInIDs{} })
	_, reply := p.roundTrip((&DescReq{PMID: standInCount}).Append(nil))
	var d Desc
	if d.Decode(reply) != nil || d.PMID != standInCount || d.InDom != standInLoad {
		t.Errorf("desc %s, want PMID %#x in indom %#x", words(reply), standInCount, standInLoad)
	}
	p.expectError((&DescReq{PMID: wirePMID(tCount)}).Append(nil), ErrPMID)

	p.send(capture(t, "profile_default"))
	u32 := standInIDs{}.PMID(tU32.ID)
	_, reply = p.roundTrip((&Fetch{PMIDs: []uint32{standInCount, u32, wirePMID(tU32)}}).Append(nil))
	var res Result
	if res.Decode(reply) != nil || len(res.Sets) != 3 {
		t.Fatalf("fetch %s", words(reply))
	}
	if s := res.Sets[0]; s.PMID != standInCount || s.NumVal != 3 {
		t.Errorf("t.count as %#x: %+v", standInCount, s)
	}
	if s := res.Sets[1]; s.PMID != u32 || s.NumVal != 1 || s.Values[0].Word != 7 {
		t.Errorf("t.u32 as %#x: %+v", u32, s)
	}
	if s := res.Sets[2]; s.NumVal != int32(ErrPMID) {
		t.Errorf("the agent's own PMID answered: %+v", s)
	}

	prof := (&Profile{InDoms: []ProfileInDom{{InDom: standInLoad, Exclude: true, Insts: []uint32{15}}}}).Append(nil)
	p.send(prof)
	_, reply = p.roundTrip((&Fetch{PMIDs: []uint32{standInCount}}).Append(nil))
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 1 || res.Sets[0].Values[0].Inst != 15 {
		t.Errorf("a profile on indom %#x: %s", standInLoad, words(reply))
	}

	_, reply = p.roundTrip((&InstanceReq{InDom: standInLoad, Inst: 5}).Append(nil))
	if _, one, err := DecodeInstance(reply); err != nil || len(one) != 1 || one[0].Name != "5 minute" {
		t.Errorf("instance 5 of %#x: %v %v", standInLoad, one, err)
	}
	p.expectError((&InstanceReq{InDom: wireLoadInDom, Inst: 5}).Append(nil), ErrInDom)

	_, reply = p.roundTrip((&TextReq{Ident: u32, Type: TextPMID | TextOneLine}).Append(nil))
	if _, text, err := DecodeText(reply); err != nil || text != "a number" {
		t.Errorf("text of %#x: %q %v", u32, text, err)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: standInLoad, Type: LabelInDom}).Append(nil))
	if !containsBytes(reply, `"indom_name":"per window"`) {
		t.Errorf("labels of indom %#x: %q", standInLoad, reply)
	}
}

// aliasStore has two sources: one with the load domain 2 (instances 1
// and 5) and t.count in it, one with domain 3 (1, 5 and 15) and t.extra.
func aliasStore(t *testing.T) *cache.Front {
	t.Helper()
	extra := cache.Desc{Name: "t.extra", ID: cache.NewMetricID(2, 1), Type: cache.TypeU32, Sem: cache.SemInstant, InDom: 3}
	schema, err := cache.NewSchema(
		cache.Source{Name: "a", Metrics: []cache.Desc{tCount}, InDoms: []cache.InDomDesc{{ID: 2, Name: "load"}}},
		cache.Source{Name: "b", Metrics: []cache.Desc{extra}, InDoms: []cache.InDomDesc{{ID: 3, Name: "more"}}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	a := schema.NewBuilder(0, time.Now())
	a.SetInDom(2, cache.NewInstances([]cache.Instance{{ID: 1, Name: "cpu1"}, {ID: 5, Name: "cpu5"}}))
	for _, i := range []uint32{1, 5} {
		a.SetU64(tCount.ID, i, uint64(i))
	}
	b := schema.NewBuilder(1, time.Now())
	b.SetInDom(3, cache.NewInstances([]cache.Instance{{ID: 1, Name: "cpu1"}, {ID: 5, Name: "cpu5"}, {ID: 15, Name: "cpu15"}}))
	for _, i := range []uint32{1, 5, 15} {
		b.SetU64(extra.ID, i, uint64(i))
	}
	for src, bd := range []*cache.Builder{a, b} {
		part, err := bd.Part()
		if err != nil {
			t.Fatal(err)
		}
		front.Publish(src, part)
	}
	return front
}

// An alias's values are limited to its holder's instances: the wire
// domain lists the holder's, and a value of another instance would name
// none of them.
func TestAliasValuesAreTheHoldersInstances(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.Numbering, cfg.Front = standInIDs{}, aliasStore(t) })
	p.send(capture(t, "profile_default"))
	extra := standInIDs{}.PMID(cache.NewMetricID(2, 1))
	_, reply := p.roundTrip((&Fetch{PMIDs: []uint32{extra, standInCount}}).Append(nil))
	var res Result
	if res.Decode(reply) != nil || len(res.Sets) != 2 {
		t.Fatalf("fetch %s", words(reply))
	}
	if s := res.Sets[0]; s.NumVal != 2 || s.Values[0].Inst != 1 || s.Values[1].Inst != 5 {
		t.Errorf("the alias's values %+v, want instances 1 and 5 only", s)
	}
	if s := res.Sets[1]; s.NumVal != 2 {
		t.Errorf("the holder's values %+v, want 2", s)
	}
}

// wireTexts answers the stand-in's PMID of t.count and its load domain by
// the identifier, as another agent's compiled help would; everything
// else falls through to testTexts.
type wireTexts struct{ testTexts }

func (wireTexts) WireText(ident uint32, indom, long bool) (string, bool) {
	switch {
	case !indom && ident == standInCount && !long:
		return "the other agent's count", true
	case !indom && ident == standInCount && long:
		return "", true // that agent's help has no long text
	case indom && ident == standInLoad:
		return "the other agent's windows", true
	}
	return "", false
}

func TestWireTextsAnswerByIdentifier(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.Numbering = standInIDs{}; cfg.Texts = wireTexts{} })
	cases := []struct {
		q    TextReq
		want string
	}{
		{TextReq{Ident: standInCount, Type: TextPMID | TextOneLine}, "the other agent's count"},
		{TextReq{Ident: standInCount, Type: TextPMID | TextHelp}, ""}, // an empty TEXT, as that agent sends
		{TextReq{Ident: standInLoad, Type: TextInDom | TextHelp}, "the other agent's windows"},
		{TextReq{Ident: standInIDs{}.PMID(tU32.ID), Type: TextPMID | TextHelp}, "a number, at length"},
	}
	for _, c := range cases {
		_, reply := p.roundTrip(c.q.Append(nil))
		if _, text, err := DecodeText(reply); err != nil || text != c.want {
			t.Errorf("text of %#x type %#x: %q %v, want %q", c.q.Ident, c.q.Type, text, err, c.want)
		}
	}
	// An identifier the agent does not serve gets no text, whatever the
	// source would say of it.
	p.expectError((&TextReq{Ident: wireLoadInDom, Type: TextInDom | TextOneLine}).Append(nil), ErrText)
}
