package standin

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// maxSerial is the largest domain serial on the wire (22 bits).
const maxSerial = 1<<22 - 1

// numbering builds the maps from the twins and domains settled so far.
func (b *builder) numbering() (*Numbering, error) {
	x := &Numbering{agent: b.agent,
		pmid: map[cache.MetricID]uint32{}, metric: map[uint32]cache.MetricID{},
		indom: map[cache.InDomID]uint32{}, indomOf: map[uint32]cache.InDomID{},
		twin: map[string]bool{}, holder: map[cache.InDomID]cache.InDomID{},
	}
	for _, d := range b.descs {
		if err := b.placeMetric(x, d); err != nil {
			return nil, err
		}
	}
	for _, in := range b.allDomains() {
		if err := b.placeInDom(x, in); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// placeMetric gives a twin its wire PMID, the agent's; every other
// metric has none in the agent's domain.
func (b *builder) placeMetric(x *Numbering, d cache.Desc) error {
	m, ok := b.twin[d.ID]
	if !ok {
		return nil
	}
	wire := b.agent.PMID(m)
	if other, dup := x.metric[wire]; dup && other != d.ID {
		return fmt.Errorf("%s and metric %s share wire PMID %#x", d.Name, other, wire)
	}
	x.metric[wire], x.pmid[d.ID], x.twin[d.Name] = d.ID, wire, true
	return nil
}

// placeInDom gives an internal domain the agent's domain it holds, or
// is an alias of; a domain with no twins has none in the agent's domain.
func (b *builder) placeInDom(x *Numbering, in cache.InDomID) error {
	serial, ok := b.indomTo[in]
	if !ok {
		return nil
	}
	wire := b.agent.WireInDom(serial)
	if holder, ok := b.alias[in]; ok {
		x.indom[in], x.holder[in] = wire, holder
		return nil
	}
	if other, dup := x.indomOf[wire]; dup {
		return fmt.Errorf("domains %s and %s share wire domain %#x", b.indomText(in), b.indomText(other), wire)
	}
	x.indom[in], x.indomOf[wire] = wire, in
	return nil
}

// allDomains lists every internal domain, named or used, by serial.
func (b *builder) allDomains() []cache.InDomID {
	seen := map[cache.InDomID]bool{}
	for in := range b.indomName {
		seen[in] = true
	}
	for _, d := range b.descs {
		if d.InDom != cache.InDomNone {
			seen[d.InDom] = true
		}
	}
	return sortedKeys(seen)
}
