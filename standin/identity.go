package standin

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Shift moves a hostcache metric's cluster, or an instance domain's
// serial, past everything pmdalinux uses: clusters and serials below it
// are pmdalinux's, so hostcache's own metrics and domains never collide
// with a pmdalinux identity, today's or a later PCP's.
const Shift = 256

// prefix is the root of every hostcache name; a twin's wire name drops it.
const prefix = "hostcache."

// Identity maps hostcache's internal ids to the wire identities of the
// stand-in mode and back. A twin (hostcache.X with pmdalinux's X's
// descriptor) answers with X's PMID and name; every other metric keeps
// its name and moves to cluster+Shift. It is immutable once built, and
// every lookup is a map read: O(1) and allocation-free.
type Identity struct {
	pmid    map[cache.MetricID]uint32
	metric  map[uint32]cache.MetricID
	indom   map[cache.InDomID]uint32
	indomOf map[uint32]cache.InDomID
	twin    map[string]bool // hostcache names that are twins
	holder  map[cache.InDomID]cache.InDomID
	// namePMID is the PMID of each metric's hostcache name: its cluster +
	// Shift. A twin answers at pmdalinux's PMID under pmdalinux's name
	// and at this one under its hostcache name, so that no PMID has two
	// names: pmlogextract refuses archives whose PMIDs change names.
	namePMID map[cache.MetricID]uint32
}

// PMID returns the wire PMID of an internal metric id. An id the
// Identity was not built with (a dynamic source's, placed while the agent
// runs) is no twin: it moves to cluster+Shift, as every other hostcache
// metric; PMIDNull when that is beyond the wire's clusters.
func (x *Identity) PMID(id cache.MetricID) uint32 {
	if w, ok := x.pmid[id]; ok {
		return w
	}
	if id.Cluster()+Shift <= maxCluster {
		return WirePMID(id.Cluster()+Shift, id.Item())
	}
	return PMIDNull
}

// NamePMID returns the PMID of a metric's hostcache name: pmdalinux's
// PMID answers a twin under pmdalinux's name, this one under hostcache's.
func (x *Identity) NamePMID(id cache.MetricID) uint32 {
	if w, ok := x.namePMID[id]; ok {
		return w
	}
	return PMIDNull
}

// Metric returns the internal metric id a wire PMID names: a twin's
// pmdalinux PMID or its hostcache name's, or, past the shift, the id a
// metric placed while the agent runs has there (PMID's rule).
func (x *Identity) Metric(wire uint32) (cache.MetricID, bool) {
	if id, ok := x.metric[wire]; ok {
		return id, true
	}
	cluster := wire >> 10 & maxCluster
	if wire>>22 != Domain || cluster < Shift {
		return 0, false
	}
	id := cache.NewMetricID(cluster-Shift, wire&0x3ff)
	if _, known := x.pmid[id]; known {
		return 0, false // a built metric answers only where it was placed
	}
	return id, true
}

// InDom returns the wire instance domain of an internal one:
// cache.InDomNone is InDomNull; a serial the Identity was not built with
// (a dynamic source's) moves to serial+Shift.
func (x *Identity) InDom(id cache.InDomID) uint32 {
	if w, ok := x.indom[id]; ok {
		return w
	}
	if id == cache.InDomNone || uint32(id)+Shift > maxSerial {
		return InDomNull
	}
	return WireInDom(id + Shift)
}

// InDomOf returns the internal instance domain a wire one names.
func (x *Identity) InDomOf(wire uint32) (cache.InDomID, bool) {
	if id, ok := x.indomOf[wire]; ok {
		return id, true
	}
	serial := wire & maxSerial
	if wire>>22 != Domain || serial < Shift {
		return 0, false
	}
	id := cache.InDomID(serial - Shift)
	if _, known := x.indom[id]; known {
		return 0, false
	}
	return id, true
}

// KeptFiles maps each internal instance domain that answers as a
// pmdalinux domain whose ids libpcp_pmda keeps in a file (KeptInDom) to
// that domain's serial; aliases keep no ids of their own.
func (x *Identity) KeptFiles() map[cache.InDomID]uint32 {
	out := map[cache.InDomID]uint32{}
	for in, wire := range x.indom {
		serial := cache.InDomID(wire & maxSerial)
		if _, alias := x.holder[in]; !alias && wire>>22 == Domain && KeptInDom(serial) {
			out[in] = uint32(serial)
		}
	}
	return out
}

// Holder returns, for an internal domain that answers as an alias, the
// domain that holds its wire domain: the alias's values are limited to
// the holder's instances, as pmdalinux's instance set is one.
func (x *Identity) Holder(id cache.InDomID) (cache.InDomID, bool) {
	h, ok := x.holder[id]
	return h, ok
}

// WireName returns the name a hostcache metric answers under: X for the
// twin hostcache.X, the name itself for every other metric.
func (x *Identity) WireName(name string) string {
	if x.twin[name] {
		return strings.TrimPrefix(name, prefix)
	}
	return name
}

// IsTwin reports whether a hostcache metric answers as pmdalinux's own.
func (x *Identity) IsTwin(name string) bool { return x.twin[name] }

// Twins returns how many hostcache metrics answer as pmdalinux's own.
func (x *Identity) Twins() int { return len(x.twin) }

// LinuxPMID reports whether a wire PMID of the domain is in pmdalinux's
// numbering (a cluster below Shift), not one of hostcache's own names.
func LinuxPMID(wire uint32) bool { return wire>>10&maxCluster < Shift }

// LinuxInDom reports whether a wire instance domain of the domain is in
// pmdalinux's numbering (a serial below Shift).
func LinuxInDom(wire uint32) bool { return wire&maxSerial < Shift }
