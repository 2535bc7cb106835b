package cache

import (
	"fmt"
	"math"
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
	// Seq numbers the sample in its source's history (kept by the engine),
	// so values computed at read time start from the sample this part holds.
	Seq uint64
	// The values of schema index lo+i are all[ends[i-1]:ends[i]] (from 0
	// for i = 0): one array and one index for the whole part, looked up
	// without hashing. The array holds no pointers, so the garbage
	// collector never scans it; a string value's text is in strs, at the
	// index its Bits hold.
	lo     int
	ends   []int32
	all    []Num
	strs   []string
	schema *Schema
	// indoms are the source's instance tables, shared with the part
	// before while they are the same tables (most samples: the values
	// move, the instances do not).
	indoms []partInDom
	// repeats is set when the part holds exactly the values, strings and
	// instance tables of the part its builder made before it (and shares
	// their arrays): the history then keeps the sample without a copy.
	repeats bool
	// renewed lists the instances that are new things under old ids (a
	// process whose PID was reused): their counters start again here.
	renewed []uint32
}

// partInDom is one instance table of a part: a source owns a few
// instance domains, found by a scan faster than a map's hash.
type partInDom struct {
	id InDomID
	in *Instances
}

// Renewed lists the instances whose ids now name something new (Builder.Renew).
func (p *Part) Renewed() []uint32 { return p.renewed }

// Repeats reports whether the part holds exactly what the part before it
// from the same builder held, sharing its arrays.
func (p *Part) Repeats() bool { return p.repeats }

// NumsAt returns the values of the metric at schema index i as the part
// holds them, without copying: callers must not modify them. For a STRING
// metric Bits indexes the part's strings; AppendValues resolves them.
func (p *Part) NumsAt(i int) []Num {
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

// AppendValues appends the values of the metric at schema index i to dst.
func (p *Part) AppendValues(dst []Value, i int) []Value {
	nums := p.NumsAt(i)
	if len(nums) == 0 {
		return dst
	}
	if p.schema.descs[i].Type != TypeString {
		for _, n := range nums {
			dst = append(dst, Value{Inst: n.Inst, Bits: n.Bits})
		}
		return dst
	}
	for _, n := range nums {
		dst = append(dst, Value{Inst: n.Inst, Str: p.strs[n.Bits]})
	}
	return dst
}

// InDom returns the part's table of an instance domain its source owns.
func (p *Part) InDom(id InDomID) (*Instances, bool) {
	for _, d := range p.indoms {
		if d.id == id {
			return d.in, true
		}
	}
	return nil, false
}

// Builder fills a Part for one source, checking each metric against the
// schema so that a collector bug shows up as an error, not a wrong value.
type Builder struct {
	schema *Schema
	source int
	part   *Part
	pairs  []pair      // values in the order set; grouped by metric in Part
	strs   []string    // the string values' texts, indexed by their pairs' bits
	indoms []partInDom // the instance tables set this sample, in the order set
	pos    []int       // Part's counting-sort scratch, kept between samples
	err    error
	// prev is the part made before this one: a sample that sets the
	// values, strings and tables prev holds (nothing changed) shares
	// prev's arrays, found in the pass that would group the values.
	// prevOK says the previous sample ended with prev (no failure since),
	// so sharing is sound.
	prev   *Part
	prevOK bool
	built  bool // this sample's Part succeeded
	again  bool // the collector asked to repeat prev (Again)
	// skipUnknown leaves out a value or table that the schema does not
	// give this source, instead of failing the sample (SkipUnknown);
	// skipped counts them this sample and skipWhy says why the first was.
	skipUnknown bool
	skipped     int
	skipWhy     error
	renewed     []uint32 // Renew's instances this sample
	mirror      mirror   // Mirror's view, while one is set
	// lastPairs is how many values the last sample set, when its pairs
	// were too many to keep between samples (shed).
	lastPairs int
	// place puts the values of a sample as large as that straight into
	// the part's array (part_place.go).
	place placement
}

// keptPairs is the most pairs a builder keeps between samples: a table of
// 10,000 processes sets a million values, whose pairs would hold 16 MB for
// the whole interval between two samples.
const keptPairs = 1 << 16

// shed lets a large sample's pairs go once its part is made; the next
// sample makes room for as many at once.
func (b *Builder) shed() {
	if cap(b.pairs) > keptPairs {
		b.lastPairs, b.pairs = len(b.pairs), nil
	}
	b.place.on, b.place.all = false, nil
}

// mirror is a view Mirror sets: the values of some metrics (by schema
// index) for some instances, set again as other metrics of the source.
type mirror struct {
	insts map[uint32]bool
	to    map[int32]int32
}

// pair is one value of one metric (by its index in the schema), as set:
// 16 bytes and no pointer, a string's text being in Builder.strs.
type pair struct {
	idx  int32
	inst uint32
	bits uint64
}

// NewBuilder starts a part for the given source.
func (s *Schema) NewBuilder(source int, sampled time.Time) *Builder {
	return &Builder{schema: s, source: source, part: &Part{Sampled: sampled, schema: s}}
}

// Reset starts the next part of the same source in b, keeping its buffers:
// a collector that reuses one builder allocates little more per sample than
// the part it publishes. The part returned before stays as it was.
func (b *Builder) Reset(sampled time.Time) {
	b.prevOK, b.built, b.again = b.built, false, false
	b.part = &Part{Sampled: sampled, schema: b.schema}
	b.pairs = b.pairs[:0]
	sp := b.schema.span[b.source]
	b.place.plan(b.prev, sp.lo, max(sp.hi-sp.lo+1, 0))
	if b.pairs == nil && b.lastPairs > 0 && !b.place.on {
		b.pairs = make([]pair, 0, b.lastPairs+b.lastPairs/16)
	}
	clear(b.strs) // let the texts go with the part that holds them
	b.strs = b.strs[:0]
	clear(b.indoms) // and the tables
	b.indoms = b.indoms[:0]
	b.err = nil
	b.skipped, b.skipWhy = 0, nil
	b.renewed = b.renewed[:0]
	b.mirror = mirror{}
}

// Renew marks inst as a new thing under an id the previous sample gave
// another (a PID the kernel reused): no rate or step runs across this
// sample for its counters, which start again. A renewal makes the part
// new, never a repeat.
func (b *Builder) Renew(inst uint32) { b.renewed = append(b.renewed, inst) }

// SkipUnknown makes b leave out, and count, the values and tables that
// its schema does not give the source, where it would fail the sample: a
// dynamic source whose new metrics the schema refused keeps publishing
// those it had.
func (b *Builder) SkipUnknown() { b.skipUnknown = true }

// Skipped is how many values and tables this sample left out
// (SkipUnknown), and why the first was.
func (b *Builder) Skipped() (int, error) { return b.skipped, b.skipWhy }

// skipAgain counts a failure without saying why when SkipUnknown has
// already kept the first reason: formatting each would allocate.
func (b *Builder) skipAgain() bool {
	if b.skipUnknown && b.skipped > 0 {
		b.skipped++
		return true
	}
	return false
}

// fail makes err the sample's failure, or with SkipUnknown counts it.
func (b *Builder) fail(err error) {
	if !b.skipUnknown {
		b.err = err
		return
	}
	if b.skipped == 0 {
		b.skipWhy = err
	}
	b.skipped++
}

// Again makes this sample's part repeat the previous sample's values,
// strings and instance tables: a collector whose input is byte for byte
// what it was last time skips parsing and setting. It reports false, and
// changes nothing, when there is no previous part to repeat (the first
// sample, or one after a failure); the collector must then set values.
func (b *Builder) Again() bool {
	if !b.prevOK || b.prev == nil || b.err != nil || len(b.pairs) > 0 || b.place.set > 0 || len(b.strs) > 0 ||
		len(b.indoms) > 0 {
		return false
	}
	b.again = true
	return true
}

// check finds id's descriptor (its index in the schema) and verifies the
// value's type and that this source owns the metric.
func (b *Builder) check(id MetricID, want, alt Type) (*Desc, int, bool) {
	if b.err != nil {
		return nil, 0, false
	}
	i, ok := b.schema.index(id)
	if !ok {
		if !b.skipAgain() {
			b.fail(fmt.Errorf("metric %s is not in the schema", id))
		}
		return nil, 0, false
	}
	d := &b.schema.descs[i]
	switch {
	case (b.schema.srcOf[i] != b.source || (d.Type != want && d.Type != alt)) && b.skipAgain():
		return nil, 0, false
	case b.schema.srcOf[i] != b.source:
		b.fail(fmt.Errorf("metric %s belongs to source %s", d.Name, b.schema.sources[b.schema.srcOf[i]]))
		return nil, 0, false
	case d.Type != want && d.Type != alt:
		// Two plain parameters, not a variadic slice: a slice passed on to
		// Errorf would escape, costing an allocation on every value set.
		b.fail(fmt.Errorf("metric %s is %s, set as %s or %s", d.Name, d.Type, want, alt))
		return nil, 0, false
	}
	return d, i, true
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
	b.add(pair{int32(i), inst, v})
}

// Slot is a U64 or U32 metric checked once for a sample: a collector
// that sets thousands of values of a few metrics (every disk's fields, an
// interrupt per CPU) looks each metric up once instead of once per value.
// A slot is good for the builder's current sample only.
type Slot struct {
	idx   int32
	u32   bool
	valid bool
}

// U64Slot checks a U64 or U32 metric as SetU64 would; a failed check is
// the builder's error, and values set through the slot are dropped.
func (b *Builder) U64Slot(id MetricID) Slot {
	d, i, ok := b.check(id, TypeU64, TypeU32)
	if !ok {
		return Slot{}
	}
	return Slot{idx: int32(i), u32: d.Type == TypeU32, valid: true}
}

// SetSlot is SetU64 through a slot.
func (b *Builder) SetSlot(s Slot, inst uint32, v uint64) {
	if !s.valid {
		return
	}
	if s.u32 {
		v &= 0xffffffff
	}
	b.add(pair{s.idx, inst, v})
}

// add sets a value, and its mirror's when a view takes it.
func (b *Builder) add(p pair) {
	b.put(p)
	if b.mirror.insts == nil || p.inst != InstNone && !b.mirror.insts[p.inst] {
		return
	}
	if to, ok := b.mirror.to[p.idx]; ok {
		p.idx = to
		b.put(p)
	}
}

// put places a value in the part's array when the sample is placed and
// its metric's region has room, and appends it to the pairs otherwise.
func (b *Builder) put(p pair) {
	if !b.place.on || !b.place.put(p) {
		b.pairs = append(b.pairs, p)
	}
}

// Mirror sets a view until the next Mirror or Reset: every value set for
// one of the metrics ids maps, of one of insts, is also set as the
// metric it maps to, which this source owns and which has the same type.
// A value without instances (InstNone) is set again whatever insts holds.
// pmdaproc's hotproc.* are such a view of proc.*: the same values, for the
// hot processes only. A nil insts ends the view.
func (b *Builder) Mirror(insts map[uint32]bool, ids map[MetricID]MetricID) {
	b.mirror = mirror{}
	if insts == nil {
		return
	}
	to := make(map[int32]int32, len(ids))
	for from, into := range ids {
		i, ok := b.schema.index(from)
		j, ok2 := b.schema.index(into)
		if ok && ok2 && b.schema.srcOf[j] == b.source && b.schema.descs[i].Type == b.schema.descs[j].Type {
			to[int32(i)] = int32(j)
		}
	}
	b.mirror = mirror{insts: insts, to: to}
}

// SetI64 adds a signed value to an I64 or I32 metric.
func (b *Builder) SetI64(id MetricID, inst uint32, v int64) {
	if _, i, ok := b.check(id, TypeI64, TypeI32); ok {
		b.add(pair{int32(i), inst, uint64(v)})
	}
}

// SetDouble adds a value to a DOUBLE or FLOAT metric.
func (b *Builder) SetDouble(id MetricID, inst uint32, v float64) {
	d, i, ok := b.check(id, TypeDouble, TypeFloat)
	if !ok {
		return
	}
	if d.Type == TypeFloat {
		b.add(pair{int32(i), inst, FloatValue(inst, float32(v)).Bits})
		return
	}
	b.add(pair{int32(i), inst, math.Float64bits(v)})
}

// SetString adds a value to a STRING metric.
func (b *Builder) SetString(id MetricID, inst uint32, s string) {
	if _, i, ok := b.check(id, TypeString, TypeString); ok {
		b.add(pair{int32(i), inst, uint64(len(b.strs))})
		b.strs = append(b.strs, s)
	}
}

// SetInDom publishes the current members of an instance domain this source owns.
func (b *Builder) SetInDom(id InDomID, in *Instances) {
	if b.err != nil {
		return
	}
	owner, ok := b.schema.indomOwn[id]
	if (!ok || owner != b.source) && b.skipAgain() {
		return
	}
	if !ok || owner != b.source {
		b.fail(fmt.Errorf("indom %d does not belong to source %s", id, b.schema.sources[b.source]))
		return
	}
	for k := range b.indoms {
		if b.indoms[k].id == id {
			b.indoms[k].in = in
			return
		}
	}
	b.indoms = append(b.indoms, partInDom{id, in})
}

// Part returns the finished part, or the first error met while building it.
// The values are grouped by metric into one array with a counting sort on
// the metrics' schema indexes (each metric's values keep the order they
// were set in), so a sample costs a few allocations, not one per metric.
func (b *Builder) Part() (*Part, error) {
	defer b.shed()
	if b.err != nil {
		return nil, b.err
	}
	if len(b.renewed) == 0 && b.again {
		return b.repeat(), nil
	}
	if len(b.renewed) > 0 {
		b.part.renewed = slices.Clone(b.renewed)
	}
	sp := b.schema.span[b.source]
	all, ends := b.grouped(sp.lo, max(sp.hi-sp.lo+1, 0))
	if all == nil {
		return b.repeat(), nil
	}
	if len(b.strs) > 0 {
		b.part.strs = append([]string(nil), b.strs...)
	}
	b.part.indoms = b.inDomsToKeep()
	b.part.lo, b.part.ends, b.part.all = sp.lo, ends, all
	b.prev, b.built = b.part, true
	return b.part, nil
}

// grouped returns the sample's values grouped by metric, for the n
// metrics from schema index lo, and where each metric's end; nil values
// when they are exactly prev's.
func (b *Builder) grouped(lo, n int) ([]Num, []int32) {
	if b.place.on {
		all, ends := b.place.finish(b.pairs)
		if b.mayRepeat(lo, ends) && slices.Equal(all, b.prev.all) {
			return nil, ends
		}
		return all, ends
	}
	pos := b.countByMetric(n, lo)
	ends := make([]int32, len(pos)-1)
	for i := range ends {
		ends[i] = int32(pos[i+1])
	}
	return b.group(pos, lo, b.mayRepeat(lo, ends)), ends
}

// countByMetric returns, for the n metrics from schema index lo, where
// each one's values start in the grouped array (and their total last).
func (b *Builder) countByMetric(n, lo int) []int {
	if cap(b.pos) < n+1 {
		b.pos = make([]int, n+1)
	}
	pos := b.pos[:n+1]
	clear(pos)
	for _, p := range b.pairs {
		pos[int(p.idx)-lo+1]++
	}
	for i := 1; i <= n; i++ {
		pos[i] += pos[i-1]
	}
	return pos
}

// mayRepeat reports whether this sample can repeat prev: no renewal, the
// same count of values for each metric (ends), the same strings and the
// same tables. Then only the values remain to compare.
func (b *Builder) mayRepeat(lo int, ends []int32) bool {
	return len(b.renewed) == 0 && b.prevOK && b.prev != nil && b.prev.lo == lo &&
		slices.Equal(b.prev.ends, ends) && slices.Equal(b.strs, b.prev.strs) && b.sameInDoms()
}

// group places each pair at its metric's next position (pos, which it
// moves on) in a new array and returns it. When compare is set it first
// compares each with what prev holds there, and allocates only at the
// first difference, as a copy of prev's values: the places passed hold
// the same values. It returns nil when every pair matched: nothing
// changed, and no array was made.
func (b *Builder) group(pos []int, lo int, compare bool) []Num {
	var all []Num
	if !compare {
		all = make([]Num, len(b.pairs))
	}
	for _, p := range b.pairs {
		j := int(p.idx) - lo
		n := Num{Inst: p.inst, Bits: p.bits}
		if all == nil {
			if b.prev.all[pos[j]] == n {
				pos[j]++
				continue
			}
			all = slices.Clone(b.prev.all)
		}
		all[pos[j]] = n
		pos[j]++
	}
	return all
}

// sameInDoms reports whether this sample set the instance tables the
// previous part holds, in the same order.
func (b *Builder) sameInDoms() bool {
	return b.prev != nil && slices.Equal(b.indoms, b.prev.indoms)
}

// inDomsToKeep returns the tables set this sample for the part to keep:
// the previous part's when they are the same, so an unchanged set of
// instance domains costs no allocation.
func (b *Builder) inDomsToKeep() []partInDom {
	if len(b.indoms) == 0 {
		return nil
	}
	if b.sameInDoms() {
		return b.prev.indoms
	}
	return slices.Clone(b.indoms)
}

// repeat finishes the part as a repetition of prev, sharing its arrays.
func (b *Builder) repeat() *Part {
	p := b.part
	p.lo, p.ends, p.all, p.strs, p.indoms = b.prev.lo, b.prev.ends, b.prev.all, b.prev.strs, b.prev.indoms
	p.repeats = true
	b.prev, b.built = p, true
	return p
}
