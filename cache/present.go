package cache

import "slices"

// Present is what a fetch learnt at its own time of the instances that
// exist, for instance domains whose source has no sample as of the fetch
// (one late for the fetch deadline): pmdaproc lists /proc at each fetch,
// so a process that exited before the fetch has no value in its answer,
// and none in ours either, though the values come from an older sample.
// A nil *Present knows nothing and keeps every instance.
type Present struct {
	byInDom map[InDomID][]uint32 // sorted
}

// Set records the instances of indom that exist: ids, in any order.
// Present keeps ids and sorts them.
func (p *Present) Set(indom InDomID, ids []uint32) {
	if p.byInDom == nil {
		p.byInDom = map[InDomID][]uint32{}
	}
	slices.Sort(ids)
	p.byInDom[indom] = ids
}

// Knows reports whether p lists indom's instances.
func (p *Present) Knows(indom InDomID) bool {
	if p == nil {
		return false
	}
	_, ok := p.byInDom[indom]
	return ok
}

// Has reports whether instance inst of indom may be answered: listed, or
// of a domain p knows nothing of.
func (p *Present) Has(indom InDomID, inst uint32) bool {
	if p == nil {
		return true
	}
	ids, ok := p.byInDom[indom]
	if !ok {
		return true
	}
	_, found := slices.BinarySearch(ids, inst)
	return found
}

// keep drops from dst[start:] the values of instances of indom that p
// knows are gone.
func (p *Present) keep(dst []Value, start int, indom InDomID) []Value {
	if !p.Knows(indom) {
		return dst
	}
	kept := start
	for _, v := range dst[start:] {
		if p.Has(indom, v.Inst) {
			dst[kept] = v
			kept++
		}
	}
	return dst[:kept]
}

// Merge adds the lists of q to p.
func (p *Present) Merge(q *Present) {
	for indom, ids := range q.byInDom {
		if p.byInDom == nil {
			p.byInDom = map[InDomID][]uint32{}
		}
		p.byInDom[indom] = ids
	}
}
