package cache

import (
	"fmt"
	"time"
)

// Part is what one source publishes: its values and instance domains from
// one sample. Once published it is never modified.
type Part struct {
	Sampled time.Time // when the sample was taken (carries the monotonic clock)
	// StaleAfter, when positive, is how old the part may get before its
	// values are withheld: a stalled source shows no values rather than
	// old ones, and they come back with its next sample.
	StaleAfter time.Duration
	// Seq numbers the sample in its source's history (kept by the engine),
	// so values computed at read time start from the sample this part holds.
	Seq uint64
	// The values of schema index lo+i are all[ends[i-1]:ends[i]] (from 0
	// for i = 0): one array and one index for the whole part, looked up
	// without hashing.
	lo     int
	ends   []int32
	all    []Value
	indoms map[InDomID]*Instances
}

// ValuesAt returns the values of the metric at schema index i, without
// copying: callers must not modify them.
func (p *Part) ValuesAt(i int) []Value { return p.valuesAt(i) }

// valuesAt returns the values of the metric at schema index i.
func (p *Part) valuesAt(i int) []Value {
	j := i - p.lo
	if j < 0 || j >= len(p.ends) {
		return nil
	}
	start := int32(0)
	if j > 0 {
		start = p.ends[j-1]
	}
	return p.all[start:p.ends[j]:p.ends[j]]
}

// InDom returns the part's table of an instance domain its source owns.
func (p *Part) InDom(id InDomID) (*Instances, bool) {
	in, ok := p.indoms[id]
	return in, ok
}

// Builder fills a Part for one source, checking each metric against the
// schema so that a collector bug shows up as an error, not a wrong value.
type Builder struct {
	schema *Schema
	source int
	part   *Part
	pairs  []pair // values in the order set; grouped by metric in Part
	pos    []int  // Part's counting-sort scratch, kept between samples
	err    error
}

// pair is one value of one metric (by its index in the schema), as set.
type pair struct {
	idx int
	v   Value
}

// NewBuilder starts a part for the given source.
func (s *Schema) NewBuilder(source int, sampled time.Time) *Builder {
	return &Builder{schema: s, source: source, part: &Part{Sampled: sampled}}
}

// Reset starts the next part of the same source in b, keeping its buffers:
// a collector that reuses one builder allocates little more per sample than
// the part it publishes. The part returned before stays as it was.
func (b *Builder) Reset(sampled time.Time) {
	b.part = &Part{Sampled: sampled}
	b.pairs = b.pairs[:0]
	b.err = nil
}

// check finds id's descriptor (its index in the schema) and verifies the
// value's type and that this source owns the metric.
func (b *Builder) check(id MetricID, want, alt Type) (*Desc, int, bool) {
	if b.err != nil {
		return nil, 0, false
	}
	i, ok := b.schema.index(id)
	if !ok {
		b.err = fmt.Errorf("metric %s is not in the schema", id)
		return nil, 0, false
	}
	d := &b.schema.descs[i]
	switch {
	case b.schema.srcOf[i] != b.source:
		b.err = fmt.Errorf("metric %s belongs to source %s", d.Name, b.schema.sources[b.schema.srcOf[i]])
	case d.Type != want && d.Type != alt:
		// Two plain parameters, not a variadic slice: a slice passed on to
		// Errorf would escape, costing an allocation on every value set.
		b.err = fmt.Errorf("metric %s is %s, set as %s or %s", d.Name, d.Type, want, alt)
	}
	return d, i, b.err == nil
}

// SetU64 adds an unsigned value to a U64 or U32 metric.
func (b *Builder) SetU64(id MetricID, inst uint32, v uint64) {
	d, i, ok := b.check(id, TypeU64, TypeU32)
	if !ok {
		return
	}
	if d.Type == TypeU32 && v > 0xffffffff {
		// Native width: a 32-bit counter wraps as the kernel's does.
		v &= 0xffffffff
	}
	b.pairs = append(b.pairs, pair{i, U64Value(inst, v)})
}

// SetI64 adds a signed value to an I64 or I32 metric.
func (b *Builder) SetI64(id MetricID, inst uint32, v int64) {
	if _, i, ok := b.check(id, TypeI64, TypeI32); ok {
		b.pairs = append(b.pairs, pair{i, I64Value(inst, v)})
	}
}

// SetDouble adds a value to a DOUBLE or FLOAT metric.
func (b *Builder) SetDouble(id MetricID, inst uint32, v float64) {
	d, i, ok := b.check(id, TypeDouble, TypeFloat)
	if !ok {
		return
	}
	if d.Type == TypeFloat {
		b.pairs = append(b.pairs, pair{i, FloatValue(inst, float32(v))})
		return
	}
	b.pairs = append(b.pairs, pair{i, DoubleValue(inst, v)})
}

// SetString adds a value to a STRING metric.
func (b *Builder) SetString(id MetricID, inst uint32, s string) {
	if _, i, ok := b.check(id, TypeString, TypeString); ok {
		b.pairs = append(b.pairs, pair{i, StringValue(inst, s)})
	}
}

// SetInDom publishes the current members of an instance domain this source owns.
func (b *Builder) SetInDom(id InDomID, in *Instances) {
	if b.err != nil {
		return
	}
	owner, ok := b.schema.indomOwn[id]
	if !ok || owner != b.source {
		b.err = fmt.Errorf("indom %d does not belong to source %s", id, b.schema.sources[b.source])
		return
	}
	if b.part.indoms == nil {
		b.part.indoms = map[InDomID]*Instances{}
	}
	b.part.indoms[id] = in
}

// Part returns the finished part, or the first error met while building it.
// The values are grouped by metric into one array with a counting sort on
// the metrics' schema indexes (each metric's values keep the order they
// were set in), so a sample costs a few allocations, not one per metric.
func (b *Builder) Part() (*Part, error) {
	if b.err != nil {
		return nil, b.err
	}
	sp := b.schema.span[b.source]
	n := max(sp.hi-sp.lo+1, 0)
	if cap(b.pos) < n+1 {
		b.pos = make([]int, n+1)
	}
	pos := b.pos[:n+1]
	clear(pos)
	for _, p := range b.pairs {
		pos[p.idx-sp.lo+1]++
	}
	for i := 1; i <= n; i++ {
		pos[i] += pos[i-1] // pos[i]: where local metric i's values start
	}
	all := make([]Value, len(b.pairs))
	for _, p := range b.pairs {
		j := p.idx - sp.lo
		all[pos[j]] = p.v
		pos[j]++
	}
	// pos[i] is now where metric i's values end (and metric i+1's start).
	ends := make([]int32, n)
	for i := range ends {
		ends[i] = int32(pos[i])
	}
	b.part.lo, b.part.ends, b.part.all = sp.lo, ends, all
	return b.part, nil
}
