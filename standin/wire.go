package standin

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Wire ranges: a PMID's cluster has 12 bits, a domain serial 22.
const (
	maxCluster = 1<<12 - 1
	maxSerial  = 1<<22 - 1
)

// identity builds the maps from the twins and domains settled so far.
func (b *builder) identity() (*Identity, error) {
	x := &Identity{
		pmid: map[cache.MetricID]uint32{}, metric: map[uint32]cache.MetricID{},
		indom: map[cache.InDomID]uint32{}, indomOf: map[uint32]cache.InDomID{},
		twin: map[string]bool{}, holder: map[cache.InDomID]cache.InDomID{},
		namePMID: map[cache.MetricID]uint32{},
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

// placeMetric gives d its wire PMID: pmdalinux's for a twin, its own
// cluster+Shift otherwise.
func (b *builder) placeMetric(x *Identity, d cache.Desc) error {
	if d.ID.Cluster()+Shift > maxCluster {
		return fmt.Errorf("%s: cluster %d+%d is beyond the wire's %d", d.Name, d.ID.Cluster(), Shift, maxCluster)
	}
	own := WirePMID(d.ID.Cluster()+Shift, d.ID.Item())
	wire := own
	if m, ok := b.twin[d.ID]; ok {
		wire = m.PMID()
		x.twin[d.Name] = true
	}
	for _, w := range []uint32{wire, own} {
		if other, dup := x.metric[w]; dup && other != d.ID {
			return fmt.Errorf("%s and metric %s share wire PMID %#x", d.Name, other, w)
		}
		x.metric[w] = d.ID
	}
	x.pmid[d.ID], x.namePMID[d.ID] = wire, own
	return nil
}

// placeInDom gives an internal domain its wire domain: the pmdalinux one
// it holds, or its own serial+Shift.
func (b *builder) placeInDom(x *Identity, in cache.InDomID) error {
	serial, ok := b.indomTo[in]
	if !ok {
		if in+Shift > maxSerial {
			return fmt.Errorf("domain %s: serial %d+%d is beyond the wire's %d", b.indomText(in), in, Shift, maxSerial)
		}
		serial = in + Shift
	}
	wire := WireInDom(serial)
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
