package cache

import (
	"cmp"
	"fmt"
	"slices"
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
	values     map[MetricID][]Value
	indoms     map[InDomID]*Instances
}

// Builder fills a Part for one source, checking each metric against the
// schema so that a collector bug shows up as an error, not a wrong value.
type Builder struct {
	schema *Schema
	source int
	part   *Part
	pairs  []pair // values in the order set; grouped by metric in Part
	err    error
}

// pair is one value of one metric, as set.
type pair struct {
	id MetricID
	v  Value
}

// NewBuilder starts a part for the given source.
func (s *Schema) NewBuilder(source int, sampled time.Time) *Builder {
	return &Builder{
		schema: s, source: source,
		part: &Part{Sampled: sampled, indoms: map[InDomID]*Instances{}},
	}
}

func (b *Builder) check(id MetricID, want ...Type) bool {
	if b.err != nil {
		return false
	}
	d, ok := b.schema.Desc(id)
	switch {
	case !ok:
		b.err = fmt.Errorf("metric %s is not in the schema", id)
	case b.schema.owner[id] != b.source:
		b.err = fmt.Errorf("metric %s belongs to source %s", d.Name, b.schema.sources[b.schema.owner[id]])
	case !typeIn(d.Type, want):
		b.err = fmt.Errorf("metric %s is %s, set as %v", d.Name, d.Type, want)
	}
	return b.err == nil
}

func typeIn(t Type, set []Type) bool {
	for _, x := range set {
		if x == t {
			return true
		}
	}
	return false
}

func (b *Builder) add(id MetricID, v Value) {
	b.pairs = append(b.pairs, pair{id, v})
}

// SetU64 adds an unsigned value to a U64 or U32 metric.
func (b *Builder) SetU64(id MetricID, inst uint32, v uint64) {
	if !b.check(id, TypeU64, TypeU32) {
		return
	}
	if d, _ := b.schema.Desc(id); d.Type == TypeU32 && v > 0xffffffff {
		// Native width: a 32-bit counter wraps as the kernel's does.
		v &= 0xffffffff
	}
	b.add(id, U64Value(inst, v))
}

// SetI64 adds a signed value to an I64 or I32 metric.
func (b *Builder) SetI64(id MetricID, inst uint32, v int64) {
	if b.check(id, TypeI64, TypeI32) {
		b.add(id, I64Value(inst, v))
	}
}

// SetDouble adds a value to a DOUBLE or FLOAT metric.
func (b *Builder) SetDouble(id MetricID, inst uint32, v float64) {
	if !b.check(id, TypeDouble, TypeFloat) {
		return
	}
	if d, _ := b.schema.Desc(id); d.Type == TypeFloat {
		b.add(id, FloatValue(inst, float32(v)))
		return
	}
	b.add(id, DoubleValue(inst, v))
}

// SetString adds a value to a STRING metric.
func (b *Builder) SetString(id MetricID, inst uint32, s string) {
	if b.check(id, TypeString) {
		b.add(id, StringValue(inst, s))
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
	b.part.indoms[id] = in
}

// Part returns the finished part, or the first error met while building it.
// The values are grouped by metric into one array (in the order each
// metric's values were set), so a sample costs a few allocations rather
// than one per metric.
func (b *Builder) Part() (*Part, error) {
	if b.err != nil {
		return nil, b.err
	}
	slices.SortStableFunc(b.pairs, func(x, y pair) int { return cmp.Compare(x.id, y.id) })
	all := make([]Value, len(b.pairs))
	values := make(map[MetricID][]Value, len(b.pairs)/2+1)
	start := 0
	for i, p := range b.pairs {
		all[i] = p.v
		if i+1 == len(b.pairs) || b.pairs[i+1].id != p.id {
			values[p.id] = all[start : i+1 : i+1]
			start = i + 1
		}
	}
	b.part.values = values
	return b.part, nil
}
