package pmda

import (
	"testing"

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

// Under another identity every PDU speaks its numbers: descriptors,
// fetches, instances, profiles, text and labels; the agent's own numbers
// are unknown.
func TestServerAnswersUnderAnotherIdentity(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.Identity = standInIDs{} })
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
