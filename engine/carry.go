package engine

import (
	"slices"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A dynamic source's change (a new MMV file, one gone) places its metrics
// in a new schema with a new history. The metrics that did not change keep
// their samples: the new history takes over the old one's samples, under
// the same sequence numbers, with each kept metric's values where they
// were. A client's window that spans the change then holds both ends of
// an unchanged metric, so one file's coming or going costs no other
// file's rates or peaks. A metric new to the source has no value before
// the change, and is rated from its first sample on, as an instance that
// appears inside a window is.

// carryFrom makes h follow old: it takes over old's kept samples, with the
// values of every tracked metric whose descriptor is unchanged, and its
// sequence numbers and resets count go on from old's. It returns how many
// metrics' samples it took over.
func (h *history) carryFrom(old *history) (carried int) {
	h.gen = old.gen + 1
	h.first = old.next.Load()
	h.next.Store(h.first)
	h.dropFrom = h.first
	h.resetsOf.Store(old.resetsOf.Load())
	from := h.carriedFrom(old)
	for _, t := range from {
		if t >= 0 {
			carried++
		}
	}
	if carried == 0 {
		return 0
	}
	keep := min(uint64(old.keep.Load()), uint64(len(h.slots)), old.next.Load()-old.first)
	c := carrier{h: h, from: from, indomFrom: h.indomsFrom(old), layouts: map[*layout]*layout{}}
	for seq := old.next.Load() - keep; seq < old.next.Load(); seq++ {
		if s := old.at(seq); s != nil {
			c.take(s)
		}
	}
	if c.last == nil {
		return 0
	}
	h.first, h.dropFrom, h.last = c.first, c.first, c.last
	// The rings are as long (both keep tracked metrics at one interval):
	// the memory budget's shortening of the old one holds for the new.
	h.keep.Store(min(old.keep.Load(), int64(len(h.slots))))
	return carried
}

// carriedFrom maps each of h's tracked metrics to its tracked position in
// old, -1 when it is new or its descriptor changed.
func (h *history) carriedFrom(old *history) []int {
	from := make([]int, len(h.tracked))
	for t, i := range h.tracked {
		from[t] = -1
		d := h.schema.Descs()[i]
		oi, ok := old.schema.Index(d.ID)
		if !ok || !sameTracked(d, old.schema.Descs()[oi]) {
			continue
		}
		if ot, ok := old.trackedIndex(oi); ok {
			from[t] = ot
		}
	}
	return from
}

// sameTracked says a metric's values mean the same under both
// descriptors: its name, type, semantics, units and instance domain.
func sameTracked(a, b cache.Desc) bool {
	return a.Name == b.Name && a.Type == b.Type && a.Sem == b.Sem && a.Units == b.Units && a.InDom == b.InDom
}

// indomsFrom maps each of h's instance domains to its position in old's,
// -1 when old has none.
func (h *history) indomsFrom(old *history) []int {
	from := make([]int, len(h.indoms))
	for k, id := range h.indoms {
		from[k] = slices.Index(old.indoms, id)
	}
	return from
}

// carrier moves old samples into a new history, one at a time, oldest
// first, sharing what consecutive samples shared.
type carrier struct {
	h         *history
	from      []int
	indomFrom []int
	layouts   map[*layout]*layout // old layout → the same values' layout in h
	first     uint64
	last      *sample // the newest sample taken
	lastOld   *sample // its old self
	indoms    []*cache.Instances
}

// take puts a copy of old sample s in h's ring at the same sequence
// number. Its values stay in s's array: only the layout says where h's
// metrics find them.
func (c *carrier) take(s *sample) {
	n := *s
	n.own = slices.Clone(s.own) // the old ring's sample keeps its own
	n.layout = c.layout(s.layout)
	n.indoms = c.indomsOf(s)
	if c.last == nil {
		c.first = s.seq
	}
	if c.lastOld == nil || c.lastOld.seq+1 != s.seq {
		n.own = ownAll(n.vals.units()) // what it shared is not carried: it holds them here
		n.layoutShared = false
	}
	c.h.slots[s.seq%uint64(len(c.h.slots))].Store(&n)
	c.h.bytes.Add(sampleBytes(&n))
	c.last, c.lastOld = &n, s
}

// layout is old layout l as h's tracked metrics see it.
func (c *carrier) layout(l *layout) *layout {
	if n, ok := c.layouts[l]; ok {
		return n
	}
	n := &layout{starts: make([]int32, len(c.from)), ends: make([]int32, len(c.from)),
		lists: make([][]uint32, len(c.from)), carried: true}
	for t, ot := range c.from {
		if ot >= 0 {
			lo, hi := l.span(ot)
			n.starts[t], n.ends[t], n.lists[t] = int32(lo), int32(hi), l.lists[ot]
		}
	}
	c.layouts[l] = n
	return n
}

// indomsOf is s's instance tables in h's domain order, shared with the
// sample before while s shares the old one's.
func (c *carrier) indomsOf(s *sample) []*cache.Instances {
	if len(c.indomFrom) == 0 {
		return nil
	}
	if c.lastOld != nil && sameTables(c.lastOld.indoms, s.indoms) {
		return c.indoms
	}
	out := make([]*cache.Instances, len(c.indomFrom))
	for k, ok := range c.indomFrom {
		if ok >= 0 && ok < len(s.indoms) {
			out[k] = s.indoms[ok]
		}
	}
	c.indoms = out
	return out
}

// sameTables says a and b are one list of tables.
func sameTables(a, b []*cache.Instances) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
