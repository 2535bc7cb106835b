package cache

import (
	"sync"
	"sync/atomic"
	"time"
)

// Snapshot is one immutable generation of everything published: one part
// per source. A request reads exactly one snapshot, so all the values it
// returns are consistent with each other.
type Snapshot struct {
	Schema     *Schema
	Generation uint64
	parts      []*Part // indexed by source; nil until the source first publishes
}

// Part returns the latest part of a source, or nil if it has not published.
func (s *Snapshot) Part(source int) *Part {
	if source < 0 || source >= len(s.parts) {
		return nil
	}
	return s.parts[source]
}

// AppendValues appends the values of metric d to dst as a read on no
// client's behalf at now (tests and tools; the agent reads through a
// Request). A metric whose source has not published, or that had no value
// in the last sample, appends nothing. The read is the agent's own, as
// root's: it sees every value, whatever the metric's Access.
func (s *Snapshot) AppendValues(dst []Value, d *Desc, now time.Time) []Value {
	r := Request{Snap: s, Now: now, Client: NoClient, Who: Credentials{Known: true}}
	return r.AppendValues(dst, d)
}

// published appends the values of d that its source published.
func (s *Snapshot) published(dst []Value, d *Desc, now time.Time) []Value {
	i, ok := s.Schema.index(d.ID)
	if !ok {
		return dst
	}
	p := s.parts[s.Schema.srcOf[i]]
	if p == nil || p.Stale(now) {
		return dst
	}
	return p.AppendValues(dst, i)
}

// Values returns a copy of the published values of a metric (tests and
// diagnostics; the fetch path appends into its own buffer). Computed
// metrics return nil.
func (s *Snapshot) Values(d *Desc) []Value {
	i, ok := s.Schema.index(d.ID)
	if !ok || d.Compute != nil {
		return nil
	}
	p := s.parts[s.Schema.srcOf[i]]
	if p == nil {
		return nil
	}
	return p.AppendValues(nil, i)
}

// Stale reports whether the part is past its staleness limit at now.
func (p *Part) Stale(now time.Time) bool {
	return p.StaleAfter > 0 && now.Sub(p.Sampled) > p.StaleAfter
}

// InDom returns the current members of an instance domain.
func (s *Snapshot) InDom(id InDomID) (*Instances, bool) {
	owner, ok := s.Schema.indomOwn[id]
	if !ok {
		return nil, false
	}
	if p := s.parts[owner]; p != nil {
		if in, ok := p.InDom(id); ok {
			return in, true
		}
	}
	return emptyInstances, true
}

var emptyInstances = NewInstances(nil)

// Front holds the front snapshot. Readers Load it without locks; sources
// Publish a new part, which makes a new snapshot that shares every other
// source's part, swapped in with one atomic store. A dynamic source's
// change (Replace) swaps in a new schema with a snapshot that has no part
// of that source.
type Front struct {
	mu      sync.Mutex // serialises publishers only
	current atomic.Pointer[Snapshot]
	fresh   freshPtr // samples sources for a fetch (fresh.go)
}

// NewFront starts with an empty snapshot.
func NewFront(schema *Schema) *Front {
	st := &Front{}
	st.current.Store(&Snapshot{Schema: schema, parts: make([]*Part, len(schema.sources))})
	return st
}

// Schema returns the current schema: the current snapshot's.
func (st *Front) Schema() *Schema { return st.current.Load().Schema }

// Load returns the current snapshot.
func (st *Front) Load() *Snapshot { return st.current.Load() }

// Publish makes p the latest part of source and swaps in a new snapshot.
// A part of a dynamic source built before its last change is dropped: its
// indexes are the old schema's. Other sources' parts stay good across a
// change, as their indexes do.
func (st *Front) Publish(source int, p *Part) {
	st.mu.Lock()
	defer st.mu.Unlock()
	old := st.current.Load()
	if p != nil && p.schema != nil && p.schema.epochs[source] != old.Schema.epochs[source] {
		return
	}
	parts := make([]*Part, len(old.parts))
	copy(parts, old.parts)
	parts[source] = p
	st.current.Store(&Snapshot{Schema: old.Schema, Generation: old.Generation + 1, parts: parts})
}

// Replace puts src in dynamic source i's place (Schema.WithSource) and
// swaps in a snapshot of the new schema, with every other source's part
// and none of source i's until it publishes again. It returns the new
// schema.
func (st *Front) Replace(i int, src Source) (*Schema, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	old := st.current.Load()
	schema, err := old.Schema.WithSource(i, src)
	if err != nil {
		return nil, err
	}
	parts := make([]*Part, len(old.parts))
	copy(parts, old.parts)
	parts[i] = nil
	st.current.Store(&Snapshot{Schema: schema, Generation: old.Generation + 1, parts: parts})
	return schema, nil
}
