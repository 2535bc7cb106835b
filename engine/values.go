package engine

import "math/bits"

// A sample's values. A small sample holds them in one array. A large one
// (a process table: ten thousand processes times twenty counters) holds
// them in chunks, and a chunk whose instances and values are the previous
// sample's is that sample's chunk, not a copy: most processes sleep, and
// their counters stay as they were, so a history of them holds each such
// value once, not once a sample.

// chunkLen is how many values a chunk holds; chunkedFrom is how many
// values a sample needs to be held in chunks, where the pointers and the
// last chunk's slack cost little beside the values.
const (
	chunkLen    = 64
	chunkedFrom = 4096
	chunkBytes  = 8 * chunkLen
)

type chunk [chunkLen]uint64

// values are a sample's values, in layout order: flat for a small sample,
// in chunks for a large one.
type values struct {
	flat   []uint64
	chunks []*chunk
}

// at is the value at position p.
func (v *values) at(p int) uint64 {
	if v.chunks == nil {
		return v.flat[p]
	}
	return v.chunks[p/chunkLen][p%chunkLen]
}

// appendRange appends the values at positions lo to hi to dst.
func (v *values) appendRange(dst []uint64, lo, hi int) []uint64 {
	if v.chunks == nil {
		return append(dst, v.flat[lo:hi]...)
	}
	for p := lo; p < hi; {
		c, off := v.chunks[p/chunkLen], p%chunkLen
		n := min(chunkLen-off, hi-p)
		dst = append(dst, c[off:off+n]...)
		p += n
	}
	return dst
}

// units is how many pieces of memory the values are: chunks, or the one
// array (none when empty).
func (v *values) units() int {
	if v.chunks != nil {
		return len(v.chunks)
	}
	if len(v.flat) > 0 {
		return 1
	}
	return 0
}

// unitBytes is the memory of one unit.
func (v *values) unitBytes() int64 {
	if v.chunks != nil {
		return chunkBytes
	}
	return int64(8 * len(v.flat))
}

// unitIs reports whether unit u of v is unit w of o: the same memory.
func (v *values) unitIs(u int, o *values, w int) bool {
	if v.chunks != nil {
		return o.chunks != nil && w < len(o.chunks) && v.chunks[u] == o.chunks[w]
	}
	return o.chunks == nil && len(o.flat) > 0 && len(v.flat) > 0 && &v.flat[0] == &o.flat[0]
}

// ownership is a bitset of the units of a sample's values that the sample
// holds: the others are an earlier sample's, which counts their memory.
type ownership []uint64

func ownAll(n int) ownership {
	o := make(ownership, (n+63)/64)
	for u := 0; u < n; u++ {
		o.set(u)
	}
	return o
}

func (o ownership) has(u int) bool { return u/64 < len(o) && o[u/64]&(1<<(u%64)) != 0 }

func (o ownership) set(u int) { o[u/64] |= 1 << (u % 64) }

func (o ownership) count() int {
	n := 0
	for _, w := range o {
		n += bits.OnesCount64(w)
	}
	return n
}

// valuesBytes is the memory of the values a sample holds.
func valuesBytes(v *values, own ownership) int64 {
	return int64(8*len(v.chunks)) + int64(own.count())*v.unitBytes()
}
