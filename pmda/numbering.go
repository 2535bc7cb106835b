package pmda

import "github.com/pmdahostcache/pmdahostcache/cache"

// Numbering maps the cache's metric ids and instance-domain serials to the
// PMIDs and InDoms pmcd and its clients see, and back. The agent answers
// under its own domain with the cache's numbering (DomainNumbering), or,
// standing in for another agent, under that agent's numbering.
type Numbering interface {
	PMID(id cache.MetricID) uint32
	Metric(wire uint32) (cache.MetricID, bool)
	InDom(id cache.InDomID) uint32
	InDomOf(wire uint32) (cache.InDomID, bool)
	// Holder names, for an instance domain that answers as an alias of
	// another (both as one wire domain), the one whose instances the wire
	// domain lists: the alias's values are limited to them.
	Holder(id cache.InDomID) (cache.InDomID, bool)
}

// DomainNumbering numbers every metric and instance domain in one PMDA
// domain as the cache does: cluster and item, and the serial, unchanged.
type DomainNumbering uint32

// PMID is id in the domain.
func (d DomainNumbering) PMID(id cache.MetricID) uint32 { return uint32(d)<<22 | uint32(id) }

// Metric is the cache's id of a PMID of the domain.
func (d DomainNumbering) Metric(wire uint32) (cache.MetricID, bool) {
	if wire>>31 != 0 || wire>>22 != uint32(d) {
		return 0, false
	}
	return cache.MetricID(wire & 0x3fffff), true
}

// InDom is the serial in the domain; no instance domain is PM_INDOM_NULL.
func (d DomainNumbering) InDom(id cache.InDomID) uint32 {
	if id == cache.InDomNone {
		return uint32(cache.InDomNone)
	}
	return uint32(d)<<22 | uint32(id)
}

// Holder is false: in its own domain every instance domain is its own.
func (DomainNumbering) Holder(cache.InDomID) (cache.InDomID, bool) { return 0, false }

// InDomOf is the cache's serial of an InDom of the domain.
func (d DomainNumbering) InDomOf(wire uint32) (cache.InDomID, bool) {
	if wire>>31 != 0 || wire>>22 != uint32(d) {
		return 0, false
	}
	return cache.InDomID(wire & 0x3fffff), true
}
