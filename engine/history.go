package engine

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// sample is one published sample of a source as its history keeps it: the
// raw values of the metrics that figures are later computed from (every
// counter, and the instants that have peaks), and when it was taken. Once
// added to the history it is never modified, so fetches read it without a lock.
type sample struct {
	seq    uint64
	at     time.Time // carries the monotonic clock
	layout *layout
	vals   values // cache.Value.Bits, in layout order (values.go)
	// own says which of vals' units (its chunks, or its one array) this
	// sample holds; the others are an earlier sample's, which counts
	// their memory. Only the sampler reads or changes it.
	own ownership
	// resets counts, from the history's first sample to this one, the
	// samples in which some counter's step was a reset: a window whose two
	// ends have the same count holds no reset, found without a walk.
	resets uint64
	reset  bool // some counter's step from the previous sample is a reset
	// extra marks a sample taken between grid samples for a reader's
	// phase: peaks take no step from or to it.
	extra bool
	// bad lists, ascending, the positions in vals whose step from the
	// previous sample is a reset (backwards, implausible, beyond a Bound):
	// nil while reset is false.
	bad []int32
	// renewed lists, ascending, the positions among bad that are renewed
	// instances (Builder.Renew): a figure starts again there, as for an
	// instance that appeared.
	renewed []int32
	// layoutShared says layout is an earlier sample's, which holds its
	// memory: this one costs none of it.
	layoutShared bool
	// indoms are the source's instance tables as published with the
	// sample (in the history's indom order), shared with the previous
	// sample while they are the same tables.
	indoms []*cache.Instances
}

// layout says which instance each value of a sample belongs to: tracked
// metric t holds vals[ends[t-1]:ends[t]] (from 0 for t = 0), or
// vals[starts[t]:ends[t]] when starts is set: a sample carried across a
// dynamic source's change keeps its values where they were (carry.go).
// lists[t] names the instance of each of t's values. Metrics with the
// same instances share one list (a process's twenty counters, one list
// of PIDs), and consecutive samples share one layout while their
// instances do not change, so most lookups find an instance at the same
// position in both.
type layout struct {
	starts []int32
	ends   []int32
	lists  [][]uint32
	size   atomic.Int64 // bytes, once measured
	// carried marks a layout of values carried across a dynamic
	// source's change (carry.go): a new sample shares nothing with it.
	carried bool
	// chunkMetric names, for a layout of values held in chunks, the
	// tracked metric each chunk belongs to alone, -1 for a chunk of
	// small metrics together: a metric of chunkLen values or more starts
	// at a chunk and the next metric at the chunk after its last.
	chunkMetric []int32
}

// span returns the positions of tracked metric t's values.
func (l *layout) span(t int) (lo, hi int) {
	switch {
	case l.starts != nil:
		lo = int(l.starts[t])
	case t > 0:
		lo = int(l.ends[t-1])
	}
	return lo, int(l.ends[t])
}

// find returns the position of inst among tracked metric t's values,
// looking first at ordinal (its position in another sample) and then
// outwards from there: a process that started or ended moves the others
// by a place or two, and a walk from the start would cost a fetch of
// every process's figures the square of their number.
func (l *layout) find(t int, inst uint32, ordinal int) (int, bool) {
	lo, _ := l.span(t)
	list := l.lists[t]
	ordinal = min(max(ordinal, 0), len(list))
	for d := 0; ordinal-d >= 0 || ordinal+d < len(list); d++ {
		if i := ordinal + d; i < len(list) && list[i] == inst {
			return lo + i, true
		}
		if i := ordinal - d - 1; i >= 0 && list[i] == inst {
			return lo + i, true
		}
	}
	return 0, false
}

// bytes is the memory the layout holds, each shared list once.
func (l *layout) bytes() int64 {
	if n := l.size.Load(); n > 0 {
		return n
	}
	n := int64(4*len(l.starts)+4*len(l.ends)+4*len(l.chunkMetric)+24*len(l.lists)) + 64
	for t, list := range l.lists {
		if len(list) > 0 && !l.sharesEarlier(t) {
			n += int64(4 * len(list))
		}
	}
	l.size.Store(n)
	return n
}

// sharesEarlier reports whether tracked metric t's list is an earlier
// metric's.
func (l *layout) sharesEarlier(t int) bool {
	for _, e := range l.lists[:t] {
		if len(e) > 0 && len(e) == len(l.lists[t]) && &e[0] == &l.lists[t][0] {
			return true
		}
	}
	return false
}

// history keeps the recent samples of one source in a ring. The sampler
// adds to it; any number of fetches and the flight recorder look samples
// up by sequence number at the same time, without locks: a slot holds a
// pointer to an immutable sample, and a look-up that finds a newer sample
// than it asked for knows the one it wanted is gone.
type history struct {
	schema   *cache.Schema
	windowed []windowed      // the source's figures over client intervals, as the recorder writes them
	indoms   []cache.InDomID // the source's instance domains
	tracked  []int           // schema indexes of the tracked metrics, ascending
	counter  []bool          // tracked[t] is a counter watched for resets
	half     []uint64        // tracked[t]'s plausible step: half its type's range
	limits   []*stepLimit    // tracked[t]'s Bound, if any; nil: no bounds at all
	trackOf  []int32         // tracked position + 1 by schema index - tracked[0]
	slots    []atomic.Pointer[sample]
	next     atomic.Uint64 // sequence number of the next sample
	bytes    atomic.Int64  // memory the ring's samples hold, roughly
	last     *sample       // the newest sample (the sampler's own)
	resetsOf atomic.Uint64 // counter instances whose step was a reset
	first    uint64        // the sequence number of its first sample (carryFrom)
	// gen counts the dynamic source's changes this history follows: a
	// figure placed for another one gives no value from it.
	gen uint64
	// keep is how many of the newest samples are kept, at most the ring's
	// length: the engine shortens it when the histories of all sources
	// would outgrow their memory budget.
	keep     atomic.Int64
	dropFrom uint64 // the oldest sample not yet dropped (the sampler's)
	// span, when set, is how far back in time the history reaches: the
	// ring has room for the samples taken between grid samples (for
	// readers' phases and fetches), and samples older than span go.
	span time.Duration
	// oldest is dropFrom (or first) as goroutines outside the sampler see
	// it, and rate the samples a second the history holds, as float64
	// bits: both are the sampler's, published for the budget and the
	// self-metrics.
	oldest atomic.Uint64
	rate   atomic.Uint64
	// scratch is where a large sample's values are laid out before they
	// go into chunks: the sampler's.
	scratch []uint64
}

// ringSlack is how many times the samples of the grid the ring of a
// source with figures has room for: samples taken for readers' phases and
// for fetches come between grid samples, and must not shorten the history
// the rates and peaks of pmlogger's long intervals are computed over.
const ringSlack = 3

// newHistory keeps depth samples of the tracked metrics (schema indexes,
// ascending). A counter whose rate a collector derives itself (ownRate)
// is not watched for resets: its collector decides what going backwards
// means (network.all's sums drop when an interface goes away).
func newHistory(schema *cache.Schema, tracked []int, depth int, ownRate map[cache.MetricID]bool) *history {
	h := &history{schema: schema, tracked: tracked}
	for _, i := range tracked {
		d := schema.Descs()[i]
		h.counter = append(h.counter, d.Sem == cache.SemCounter && !ownRate[RateID(d.ID)])
		h.half = append(h.half, halfRange(d.Type))
	}
	if len(tracked) > 0 {
		h.trackOf = make([]int32, tracked[len(tracked)-1]-tracked[0]+1)
		for t, i := range tracked {
			h.trackOf[i-tracked[0]] = int32(t + 1)
		}
	}
	h.slots = make([]atomic.Pointer[sample], max(depth, 2))
	h.keep.Store(int64(len(h.slots)))
	return h
}

// trackedID returns the tracked position of metric id.
func (h *history) trackedID(id cache.MetricID) (int, bool) {
	i, ok := h.schema.Index(id)
	if !ok {
		return 0, false
	}
	return h.trackedIndex(i)
}

// trackedIndex returns the tracked position of schema index i.
func (h *history) trackedIndex(i int) (int, bool) {
	if len(h.tracked) == 0 || i < h.tracked[0] || i-h.tracked[0] >= len(h.trackOf) {
		return 0, false
	}
	t := h.trackOf[i-h.tracked[0]]
	return int(t) - 1, t > 0
}

// at returns sample seq, or nil when it is not (or no longer) kept.
func (h *history) at(seq uint64) *sample {
	s := h.slots[seq%uint64(len(h.slots))].Load()
	if s == nil || s.seq != seq || seq+uint64(h.keep.Load()) < h.next.Load() {
		return nil
	}
	return s
}

// newest returns the newest sample, or nil before the first.
func (h *history) newest() *sample {
	n := h.next.Load()
	if n == 0 {
		return nil
	}
	return h.at(n - 1)
}

// depth is how many samples the ring holds.
func (h *history) depth() int { return len(h.slots) }

// add records part's tracked values as the next sample and returns its
// sequence number; extra marks a sample between grid samples. Only the
// sampler calls it.
func (h *history) add(p *cache.Part, at time.Time, extra bool) uint64 {
	s := &sample{seq: h.next.Load(), at: at, extra: extra}
	prev := h.last
	if p.Repeats() && prev != nil {
		// Nothing changed since the previous sample: share its values,
		// layout and tables. No counter can have gone backwards.
		s.vals, s.layout, s.indoms, s.resets = prev.vals, prev.layout, prev.indoms, prev.resets
	} else {
		s.vals, s.layout, s.own = h.capture(p)
		s.indoms = h.captureInDoms(p)
	}
	s.layoutShared = prev != nil && s.layout == prev.layout
	if prev != nil && s.own != nil {
		s.resets = prev.resets
		if n := h.countResets(prev, s, p.Renewed()); n > 0 {
			s.reset = true
			s.resets++
			h.resetsOf.Add(n)
		}
	}
	slot := &h.slots[s.seq%uint64(len(h.slots))]
	if old := slot.Load(); old != nil {
		h.release(old) // the ring came round to it
	}
	h.bytes.Add(sampleBytes(s))
	slot.Store(s)
	h.next.Store(s.seq + 1)
	h.last = s
	h.dropBeyondKeep(s.seq)
	h.dropBeyondSpan(s)
	h.oldest.Store(max(h.first, h.dropFrom))
	h.measureRate(s)
	return s.seq
}

// dropBeyondSpan frees the samples older than span before newest's.
func (h *history) dropBeyondSpan(newest *sample) {
	if h.span <= 0 {
		return
	}
	cutoff := newest.at.Add(-h.span)
	seq := max(h.dropFrom, h.first)
	for ; seq < newest.seq; seq++ {
		slot := &h.slots[seq%uint64(len(h.slots))]
		old := slot.Load()
		if old == nil || old.seq != seq {
			continue // gone already
		}
		if !old.at.Before(cutoff) {
			break
		}
		if slot.CompareAndSwap(old, nil) {
			h.release(old)
		}
	}
	h.dropFrom = seq
}

// reach makes the history keep span of samples taken every interval, and
// those taken between them: the ring gets ringSlack times the room of
// the grid's samples, and samples go once older than span (and half an
// interval, so a window of exactly span keeps its start).
func (h *history) reach(span, interval time.Duration) {
	h.span = span + interval/2
}

// measureRate publishes how many samples a second the history holds: the
// memory budget shares out seconds of history, and a source sampled
// between grid samples costs more a second.
func (h *history) measureRate(newest *sample) {
	oldest := h.at(h.oldest.Load())
	if oldest == nil || !newest.at.After(oldest.at) {
		return
	}
	rate := float64(newest.seq-oldest.seq) / newest.at.Sub(oldest.at).Seconds()
	h.rate.Store(math.Float64bits(rate))
}

// samplesPerSecond is the measured rate of the samples held, at least one
// an interval.
func (h *history) samplesPerSecond(interval time.Duration) float64 {
	return max(math.Float64frombits(h.rate.Load()), 1/interval.Seconds())
}

// dropBeyondKeep frees the samples older than the newest keep, so the
// memory they held goes back when the budget shortens the history.
func (h *history) dropBeyondKeep(newest uint64) {
	keep := uint64(h.keep.Load())
	seq := max(h.dropFrom, newest-min(newest, uint64(len(h.slots))-1))
	for ; seq+keep <= newest; seq++ {
		slot := &h.slots[seq%uint64(len(h.slots))]
		if old := slot.Load(); old != nil && old.seq == seq && slot.CompareAndSwap(old, nil) {
			h.release(old)
		}
	}
	h.dropFrom = seq
}

// release takes a dropped sample's memory off the count. Samples go
// oldest first, so the one dropped owns its values; those the sample
// after it shares stay held, and that sample owns them now.
func (h *history) release(old *sample) {
	h.bytes.Add(-sampleBytes(old))
	next := h.slots[(old.seq+1)%uint64(len(h.slots))].Load()
	if next == nil || next.seq != old.seq+1 {
		return
	}
	h.bytes.Add(next.takeUnits(old))
	if next.layoutShared {
		next.layoutShared = false
		h.bytes.Add(next.layout.bytes())
	}
}

// perSecond is the memory a second of the history holds, averaged over
// the samples held (repeated samples cost little, new ones their values),
// for sharing the memory budget.
func (h *history) perSecond(interval time.Duration) float64 {
	n := max(h.held(), 1)
	return float64(h.bytes.Load()) / float64(n) * h.samplesPerSecond(interval)
}

// held is how many samples the history holds now.
func (h *history) held() int {
	next := h.next.Load()
	return int(min(next-min(next, h.oldest.Load()), uint64(h.keep.Load())))
}

// capture copies the tracked values out of p, reusing the last layout
// while the instances are the same, and says which units of the values
// are its own: a large sample's chunks that are the previous sample's
// are shared (values.go).
func (h *history) capture(p *cache.Part) (values, *layout, ownership) {
	n := 0
	for _, i := range h.tracked {
		n += len(p.NumsAt(i))
	}
	var old *layout
	if h.last != nil && !h.last.layout.carried {
		old = h.last.layout
	}
	l := old
	if old == nil || !sameInstances(old, p, h.tracked) {
		l = h.newLayout(p, old, n >= chunkedFrom)
	}
	if l.chunkMetric == nil {
		vals := make([]uint64, 0, n)
		for _, i := range h.tracked {
			for _, v := range p.NumsAt(i) {
				vals = append(vals, v.Bits)
			}
		}
		return values{flat: vals}, l, ownAll(min(n, 1))
	}
	return h.captureChunks(p, l)
}

// newLayout lays out p's tracked values: in a layout for chunks, each
// metric of chunkLen values or more on chunks of its own.
func (h *history) newLayout(p *cache.Part, old *layout, chunked bool) *layout {
	l := &layout{ends: make([]int32, len(h.tracked)), lists: make([][]uint32, len(h.tracked))}
	if chunked {
		l.starts = make([]int32, len(h.tracked))
	}
	k := 0
	for t, i := range h.tracked {
		nums := p.NumsAt(i)
		l.lists[t] = h.listFor(l, old, t, nums)
		big := chunked && len(nums) >= chunkLen
		if big {
			k = alignChunk(k)
		}
		if chunked {
			l.starts[t] = int32(k)
		}
		k += len(nums)
		l.ends[t] = int32(k)
		if big {
			k = alignChunk(k)
		}
	}
	if chunked {
		l.chunkMetric = make([]int32, alignChunk(k)/chunkLen)
		for c := range l.chunkMetric {
			l.chunkMetric[c] = -1
		}
		for t := range h.tracked {
			if lo, hi := l.span(t); hi-lo >= chunkLen {
				for c := lo / chunkLen; c < alignChunk(hi)/chunkLen; c++ {
					l.chunkMetric[c] = int32(t)
				}
			}
		}
	}
	return l
}

func alignChunk(k int) int { return (k + chunkLen - 1) / chunkLen * chunkLen }

// captureChunks copies p's tracked values into chunks laid out by l,
// taking the previous sample's chunk where it holds the same instances
// and values.
func (h *history) captureChunks(p *cache.Part, l *layout) (values, *layout, ownership) {
	nch := len(l.chunkMetric)
	h.scratch = slices.Grow(h.scratch[:0], nch*chunkLen)[:nch*chunkLen]
	clear(h.scratch)
	for t, i := range h.tracked {
		lo, _ := l.span(t)
		for j, v := range p.NumsAt(i) {
			h.scratch[lo+j] = v.Bits
		}
	}
	vals := values{chunks: make([]*chunk, nch)}
	own := make(ownership, (nch+63)/64)
	for c := range vals.chunks {
		seg := (*chunk)(h.scratch[c*chunkLen : (c+1)*chunkLen])
		if prev := h.prevChunk(l, c); prev != nil && *prev == *seg {
			vals.chunks[c] = prev
			continue
		}
		nc := new(chunk)
		*nc = *seg
		vals.chunks[c] = nc
		own.set(c)
	}
	return vals, l, own
}

// prevChunk is the previous sample's chunk that holds what chunk c of
// layout l holds, if it has one: the same chunk of the same layout, or
// the same part of a big metric's values for the same instances.
func (h *history) prevChunk(l *layout, c int) *chunk {
	prev := h.last
	if prev == nil || prev.vals.chunks == nil || prev.layout.carried {
		return nil
	}
	pl := prev.layout
	if pl == l {
		return prev.vals.chunks[c]
	}
	t := l.chunkMetric[c]
	if t < 0 {
		return nil
	}
	lo, _ := l.span(int(t))
	plo, phi := pl.span(int(t))
	if phi-plo < chunkLen {
		return nil // small there: packed with others
	}
	j := c - lo/chunkLen
	from := j * chunkLen
	list, plist := l.lists[t], pl.lists[t]
	to := min(from+chunkLen, len(list))
	if min(from+chunkLen, len(plist)) != to || !slices.Equal(list[from:to], plist[from:to]) {
		return nil
	}
	return prev.vals.chunks[plo/chunkLen+j]
}

// takeUnits makes s the holder of the units of old's values that s
// shares, old being dropped, and returns their memory.
func (s *sample) takeUnits(old *sample) int64 {
	var n int64
	if s.own == nil {
		s.own = make(ownership, (s.vals.units()+63)/64)
	}
	same := s.vals.units() == old.vals.units() && (s.vals.chunks == nil ||
		len(s.vals.chunks) > 0 && &s.vals.chunks[0] == &old.vals.chunks[0])
	var held map[*chunk]bool
	for u := 0; u < s.vals.units(); u++ {
		if s.own.has(u) {
			continue
		}
		switch {
		case same:
			if !old.own.has(u) || !s.vals.unitIs(u, &old.vals, u) {
				continue
			}
		case s.vals.chunks == nil:
			if !old.own.has(0) || !s.vals.unitIs(u, &old.vals, 0) {
				continue
			}
		default:
			if held == nil {
				held = old.heldChunks()
			}
			if !held[s.vals.chunks[u]] {
				continue
			}
		}
		s.own.set(u)
		n += s.vals.unitBytes()
	}
	return n
}

// heldChunks are the chunks a sample holds.
func (s *sample) heldChunks() map[*chunk]bool {
	held := map[*chunk]bool{}
	for u, c := range s.vals.chunks {
		if s.own.has(u) {
			held[c] = true
		}
	}
	return held
}

// sameInstances reports whether part p's tracked metrics have, in order,
// the instances of layout l.
func sameInstances(l *layout, p *cache.Part, tracked []int) bool {
	for t, i := range tracked {
		if !numsHave(p.NumsAt(i), l.lists[t]) {
			return false
		}
	}
	return true
}

// numsHave reports whether nums are of list's instances, in order.
func numsHave(nums []cache.Num, list []uint32) bool {
	if len(nums) != len(list) {
		return false
	}
	for j, v := range nums {
		if v.Inst != list[j] {
			return false
		}
	}
	return true
}

// listFor returns the instance list of tracked metric t's nums in new
// layout l: an earlier metric's list in l, or t's list in old, when one
// names the same instances, or a new one.
func (h *history) listFor(l, old *layout, t int, nums []cache.Num) []uint32 {
	for _, e := range l.lists[:t] {
		if numsHave(nums, e) {
			return e
		}
	}
	if old != nil && numsHave(nums, old.lists[t]) {
		return old.lists[t]
	}
	list := make([]uint32, len(nums))
	for j, v := range nums {
		list[j] = v.Inst
	}
	return list
}

// captureInDoms keeps part's instance tables, reusing the previous
// sample's list while every table is the same.
func (h *history) captureInDoms(p *cache.Part) []*cache.Instances {
	if len(h.indoms) == 0 {
		return nil
	}
	same := h.last != nil
	for k, id := range h.indoms {
		in, _ := p.InDom(id)
		same = same && h.last.indoms[k] == in
	}
	if same {
		return h.last.indoms
	}
	out := make([]*cache.Instances, len(h.indoms))
	for k, id := range h.indoms {
		out[k], _ = p.InDom(id)
	}
	return out
}

// countResets lists in s.bad, and counts, the counter instances of s
// whose step from prev is a reset: gone backwards (a reset, a wrap at the
// counter's width, a re-created device), jumped by half its range, or
// grown beyond its Bound; or renewed, a new thing under an old id.
func (h *history) countResets(prev, s *sample, renewed []uint32) uint64 {
	secs := s.at.Sub(prev.at).Seconds()
	for t, isCounter := range h.counter {
		if !isCounter {
			continue
		}
		from := len(s.bad)
		h.stepResets(t, prev, s, secs)
		if len(renewed) > 0 {
			s.bad, s.renewed = appendRenewed(s.bad, from, s.renewed, s.layout, t, renewed)
		}
	}
	return uint64(len(s.bad))
}

// stepResets appends to s.bad the positions of counter t's values whose
// step from prev is not plausible growth.
func (h *history) stepResets(t int, prev, s *sample, secs float64) {
	most, perInst := h.most(t, prev, s, secs)
	lo, hi := s.layout.span(t)
	if prev.layout == s.layout && perInst == nil {
		// The same instances in the same places: no lookups.
		s.bad = appendImplausible(s.bad, lo, hi, &prev.vals, &s.vals, most)
		return
	}
	for p := lo; p < hi; p++ {
		q, ok := prev.layout.find(t, s.layout.lists[t][p-lo], p-lo)
		if !ok {
			continue
		}
		m := most
		if perInst != nil {
			m = min(m, perInst.most(perInst.unitsOf(s.layout.lists[t][p-lo]), secs))
		}
		if !plausible(prev.vals.at(q), s.vals.at(p), m) {
			s.bad = append(s.bad, int32(p))
		}
	}
}

// appendRenewed adds to bad[from:], counter t's part of the list, and to
// renewed the positions of the renewed instances, keeping both lists
// sorted and bad free of repeats (t's positions follow the t before's).
func appendRenewed(bad []int32, from int, renewed []int32, l *layout, t int, insts []uint32) ([]int32, []int32) {
	mark := len(renewed)
	for _, inst := range insts {
		if p, ok := l.find(t, inst, -1); ok {
			bad = append(bad, int32(p))
			renewed = append(renewed, int32(p))
		}
	}
	slices.Sort(renewed[mark:])
	seg := bad[from:]
	slices.Sort(seg)
	return append(bad[:from], slices.Compact(seg)...), renewed
}

// renewedAt reports whether the value at position p of s is a renewed
// instance's first.
func (s *sample) renewedAt(p int) bool {
	if len(s.renewed) == 0 {
		return false
	}
	_, found := slices.BinarySearch(s.renewed, int32(p))
	return found
}

// appendImplausible appends p to bad for each position p from lo to hi
// where a counter's step from was to now is not plausible growth of at
// most most. A chunk both samples share holds no step at all.
func appendImplausible(bad []int32, lo, hi int, was, now *values, most uint64) []int32 {
	for p := lo; p < hi; p++ {
		if now.chunks != nil && p%chunkLen == 0 && p+chunkLen <= hi &&
			was.chunks[p/chunkLen] == now.chunks[p/chunkLen] {
			p += chunkLen - 1
			continue
		}
		if !plausible(was.at(p), now.at(p), most) {
			bad = append(bad, int32(p))
		}
	}
	return bad
}

// badAt reports whether the value at position p of s is a reset since the
// previous sample.
func (s *sample) badAt(p int) bool {
	if !s.reset {
		return false
	}
	_, found := slices.BinarySearch(s.bad, int32(p))
	return found
}

// sampleBytes estimates the memory a sample holds: its values, its
// layout and its own fields. Values and a layout shared with the sample
// before are that one's.
func sampleBytes(s *sample) int64 {
	n := int64(96+4*cap(s.bad)+4*cap(s.renewed)) + valuesBytes(&s.vals, s.own)
	if !s.layoutShared {
		n += s.layout.bytes()
	}
	return n
}
