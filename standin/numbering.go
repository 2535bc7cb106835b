package standin

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Shift bounds an agent's numbering: its clusters and domain serials
// are all below it (readTable checks the table), which leaves the
// placeholders' internal ids and the wire's range room above it.
const Shift = 256

// prefix is the root of every hostcache name; a twin's wire name drops it.
const prefix = "hostcache."

// Numbering maps hostcache's internal ids to the wire identifiers of the
// domain of the agent stood in for, and back. Only the twins answer there
// (hostcache.X with the agent's X's descriptor, as X's PMID and name);
// hostcache's own
// names keep their PMIDs in hostcache's domain, which the same process
// answers on its second connection. It is immutable once built, and
// every lookup is a map read: O(1) and allocation-free.
type Numbering struct {
	agent   Agent
	pmid    map[cache.MetricID]uint32
	metric  map[uint32]cache.MetricID
	indom   map[cache.InDomID]uint32
	indomOf map[uint32]cache.InDomID
	twin    map[string]bool // hostcache names that are twins
	holder  map[cache.InDomID]cache.InDomID
}

// PMID returns the wire PMID of an internal metric id: the agent's for a
// twin, PMIDNull for every other metric, which its domain does not answer.
func (x *Numbering) PMID(id cache.MetricID) uint32 {
	if w, ok := x.pmid[id]; ok {
		return w
	}
	return PMIDNull
}

// Metric returns the internal metric id of a twin's pmdalinux PMID.
func (x *Numbering) Metric(wire uint32) (cache.MetricID, bool) {
	id, ok := x.metric[wire]
	return id, ok
}

// InDom returns the wire instance domain of an internal one: the
// pmdalinux domain it holds or is an alias of, else InDomNull.
func (x *Numbering) InDom(id cache.InDomID) uint32 {
	if w, ok := x.indom[id]; ok {
		return w
	}
	return InDomNull
}

// InDomOf returns the internal instance domain that holds a pmdalinux
// domain.
func (x *Numbering) InDomOf(wire uint32) (cache.InDomID, bool) {
	id, ok := x.indomOf[wire]
	return id, ok
}

// KeptFiles maps each internal instance domain that answers as a
// pmdalinux domain whose ids libpcp_pmda keeps in a file (KeptInDom) to
// that domain's serial; aliases keep no ids of their own.
func (x *Numbering) KeptFiles() map[cache.InDomID]uint32 {
	out := map[cache.InDomID]uint32{}
	for in, wire := range x.indom {
		serial := cache.InDomID(wire & maxSerial)
		if _, alias := x.holder[in]; !alias && wire>>22 == x.agent.Domain && x.agent.keptInDom(serial) {
			out[in] = uint32(serial)
		}
	}
	return out
}

// Holder returns, for an internal domain that answers as an alias, the
// domain that holds its wire domain: the alias's values are limited to
// the holder's instances, as pmdalinux's instance set is one.
func (x *Numbering) Holder(id cache.InDomID) (cache.InDomID, bool) {
	h, ok := x.holder[id]
	return h, ok
}

// WireName returns the name a hostcache metric answers under: X for the
// twin hostcache.X, the name itself for every other metric.
func (x *Numbering) WireName(name string) string {
	if x.twin[name] {
		return strings.TrimPrefix(name, prefix)
	}
	return name
}

// IsTwin reports whether a hostcache metric answers as pmdalinux's own.
func (x *Numbering) IsTwin(name string) bool { return x.twin[name] }

// Twins returns how many hostcache metrics answer as pmdalinux's own.
func (x *Numbering) Twins() int { return len(x.twin) }
