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

// Set records the instances of indom that exist: ids, sorted. Present
// keeps ids and never changes them, so one listing may serve several
// fetches.
func (p *Present) Set(indom InDomID, ids []uint32) {
	if p.byInDom == nil {
		p.byInDom = map[InDomID][]uint32{}
	}
	p.byInDom[indom] = ids
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
// knows are gone. A metric's values come in instance order, so one walk
// along the listed ids finds them; one out of order starts the walk again
// where a search puts it.
func (p *Present) keep(dst []Value, start int, indom InDomID) []Value {
	if p == nil {
		return dst
	}
	ids, ok := p.byInDom[indom]
	if !ok {
		return dst
	}
	kept, j := start, 0
	var prev uint32
	for _, v := range dst[start:] {
		if v.Inst < prev {
			j, _ = slices.BinarySearch(ids, v.Inst)
		}
		for j < len(ids) && ids[j] < v.Inst {
			j++
		}
		prev = v.Inst
		if j < len(ids) && ids[j] == v.Inst {
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
