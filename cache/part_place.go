package cache

import "slices"

// placement writes a large sample's values straight into the array its
// part publishes. A process table of 10,000 processes sets a million
// values a sample; set as pairs and then grouped by metric, they would
// need the pairs (16 MB) and the part's array (16 MB) at once, and the
// pairs' array would be faulted in anew every sample. With a placement,
// each metric has a region of the part's array sized from its count in
// the part before, a little larger, and a value goes straight to its
// metric's next place. Regions left part empty are closed up when the
// part is made. A value whose region is full (more processes than last
// time) is set as a pair, and the part is then grouped from both.
type placement struct {
	on   bool
	lo   int     // the schema index of the source's first metric
	all  []Num   // the regions, in schema order
	base []int32 // each metric's region starts here
	next []int32 // its next value goes here
	end  []int32 // and its region ends here
	set  int     // values placed this sample
	size int32   // the regions' total: all's length once made
}

// placeFrom is how many values the part before must hold for the next
// sample to be placed: smaller ones keep their pairs between samples.
const placeFrom = keptPairs

// plan sets up the regions from prev's counts by metric, for a source
// whose n metrics start at schema index lo; off when prev is small,
// missing or of another layout.
func (pl *placement) plan(prev *Part, lo, n int) {
	pl.on, pl.set = false, 0
	if prev == nil || len(prev.all) <= placeFrom || prev.lo != lo || len(prev.ends) != n {
		return
	}
	pl.base = slices.Grow(pl.base[:0], n)[:n]
	pl.next = slices.Grow(pl.next[:0], n)[:n]
	pl.end = slices.Grow(pl.end[:0], n)[:n]
	at, start := int32(0), int32(0)
	for j, e := range prev.ends {
		count := e - start
		start = e
		pl.base[j], pl.next[j] = at, at
		at += count + count/16 + 4
		pl.end[j] = at
	}
	// The array is made at the first value placed: a sample that repeats
	// the last (Builder.Again, an unchanged text) places none, and would
	// pay the whole array's allocation and zeroing for nothing.
	pl.all, pl.size = nil, at
	pl.on, pl.lo = true, lo
}

// put places p in its metric's region; false when the region is full.
func (pl *placement) put(p pair) bool {
	j := int(p.idx) - pl.lo
	if pl.next[j] == pl.end[j] {
		return false
	}
	if pl.all == nil {
		pl.all = make([]Num, pl.size)
	}
	pl.all[pl.next[j]] = Num{Inst: p.inst, Bits: p.bits}
	pl.next[j]++
	pl.set++
	return true
}

// finish returns the part's values grouped by metric and where each
// metric's end: the regions closed up in place, or, when some values
// overflowed into pairs, a new array with each metric's region followed
// by its pairs in the order they were set. The placement lets go of the
// array, which the part now owns.
func (pl *placement) finish(pairs []pair) ([]Num, []int32) {
	n := len(pl.base)
	ends := make([]int32, n)
	if pl.all == nil { // nothing placed: every region is empty
		pl.all = make([]Num, pl.size)
	}
	var all []Num
	if len(pairs) == 0 {
		all = pl.closeUp(ends)
	} else {
		all = pl.merge(pairs, ends)
	}
	pl.on, pl.all = false, nil
	return all, ends
}

// closeUp moves each region down to where the regions before it end.
// A region never moves up (the ones before it hold at most their size),
// so each copy is safe in schema order.
func (pl *placement) closeUp(ends []int32) []Num {
	w := int32(0)
	for j := range pl.base {
		if w != pl.base[j] {
			copy(pl.all[w:], pl.all[pl.base[j]:pl.next[j]])
		}
		w += pl.next[j] - pl.base[j]
		ends[j] = w
	}
	if int(w) < len(pl.all)/2 {
		// Half the table went since the part before: keep no more
		// than the values.
		return slices.Clone(pl.all[:w])
	}
	return pl.all[:w:w]
}

// merge makes the part's array from the regions and the pairs that
// overflowed them.
func (pl *placement) merge(pairs []pair, ends []int32) []Num {
	for _, p := range pairs {
		ends[int(p.idx)-pl.lo]++
	}
	total := int32(0)
	for j := range ends {
		total += pl.next[j] - pl.base[j] + ends[j]
		ends[j] = total
	}
	all := make([]Num, total)
	cursor := make([]int32, len(ends))
	start := int32(0)
	for j := range ends {
		cursor[j] = start + int32(copy(all[start:], pl.all[pl.base[j]:pl.next[j]]))
		start = ends[j]
	}
	for _, p := range pairs {
		j := int(p.idx) - pl.lo
		all[cursor[j]] = Num{Inst: p.inst, Bits: p.bits}
		cursor[j]++
	}
	return all
}
