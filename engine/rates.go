package engine

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// RateKey names one counter instance.
type rateKey struct {
	id   cache.MetricID
	inst uint32
}

// Rates remembers the previous raw value of every counter a collector
// publishes and derives per-second rates over the true interval between two
// samples, measured on the monotonic clock.
//
// A counter that went backwards (a reset, a wrap, a re-created device) gives
// no rate for that interval: never a negative value or a spike. Until two
// samples exist there is no rate at all.
//
// Values are kept in the order they were published: a collector publishes
// its counters in the same order every sample, so the previous value of the
// i-th counter is almost always the previous sample's i-th slot, found
// without hashing. When instances come or go the order shifts, and lookups
// fall back to an index built once for that sample.
type Rates struct {
	prev, cur []rateSlot
	prevIdx   slotIndex // prev by key, built on the first out-of-order lookup
	curIdx    slotIndex // cur by key, for delta, built as far as needed
	prevAt    time.Time
	now       time.Time
	Resets    uint64 // intervals skipped because a counter went backwards
}

// rateSlot is one counter instance's raw value.
type rateSlot struct {
	k rateKey
	v uint64
}

// slotIndex maps keys to slot positions; n slots have been indexed so far.
type slotIndex struct {
	m map[rateKey]int
	n int
}

// find returns the position of k in slots, indexing the slots not yet seen.
func (x *slotIndex) find(slots []rateSlot, k rateKey) (int, bool) {
	if x.m == nil {
		x.m = make(map[rateKey]int, len(slots))
	}
	for ; x.n < len(slots); x.n++ {
		x.m[slots[x.n].k] = x.n
	}
	i, ok := x.m[k]
	return i, ok
}

func (x *slotIndex) reset() {
	clear(x.m)
	x.n = 0
}

func NewRates() *Rates { return &Rates{} }

// Begin starts a sample taken at now.
func (r *Rates) Begin(now time.Time) {
	r.now = now
	r.cur = r.cur[:0]
	r.curIdx.reset()
}

// Counter publishes counter d's value v for inst and remembers it for
// Delta. Its rate is computed at read time, over each client's interval,
// from the history the engine keeps.
func (r *Rates) Counter(b *cache.Builder, d *cache.Desc, inst uint32, v uint64) {
	if d.Type == cache.TypeU32 {
		// A 32-bit counter has the kernel's width: a wrap shows as going
		// backwards, and that step gets no rate.
		v &= 0xffffffff
	}
	b.SetU64(d.ID, inst, v)
	r.cur = append(r.cur, rateSlot{rateKey{d.ID, inst}, v})
}

// previous returns k's value in the previous sample; i is k's position in
// this one, where it usually was last time too.
func (r *Rates) previous(i int, k rateKey) (uint64, bool) {
	if i < len(r.prev) && r.prev[i].k == k {
		return r.prev[i].v, true
	}
	j, ok := r.prevIdx.find(r.prev, k)
	if !ok {
		return 0, false
	}
	return r.prev[j].v, true
}

// rate computes the per-second rate of k (at position i), or false when
// there is none.
func (r *Rates) rate(i int, k rateKey, v uint64, u cache.Units) (float64, bool) {
	old, seen := r.previous(i, k)
	if !seen || r.prevAt.IsZero() {
		return 0, false
	}
	if v < old {
		r.Resets++
		return 0, false
	}
	secs := r.now.Sub(r.prevAt).Seconds()
	if secs <= 0 {
		return 0, false
	}
	_, factor := cache.RateOf(u)
	return float64(v-old) / secs * factor, true
}

// Delta returns the growth of k since the previous sample, if known.
func (r *Rates) Delta(id cache.MetricID, inst uint32) (uint64, bool) {
	k := rateKey{id, inst}
	i, ok := r.current(k)
	if !ok {
		return 0, false
	}
	old, seen := r.previous(i, k)
	v := r.cur[i].v
	if !seen || v < old {
		return 0, false
	}
	return v - old, true
}

// current finds k's position in this sample. Deltas are asked for right
// after the counters they derive from, so a short look back from the end
// usually finds it.
func (r *Rates) current(k rateKey) (int, bool) {
	for i := len(r.cur) - 1; i >= 0 && i >= len(r.cur)-64; i-- {
		if r.cur[i].k == k {
			return i, true
		}
	}
	return r.curIdx.find(r.cur, k)
}

// Interval returns the seconds between the previous sample and this one.
func (r *Rates) Interval() (float64, bool) {
	if r.prevAt.IsZero() {
		return 0, false
	}
	secs := r.now.Sub(r.prevAt).Seconds()
	return secs, secs > 0
}

// Commit makes this sample the previous one. Call it only after a sample
// that was published, so a failed read never shortens the next interval.
func (r *Rates) Commit() {
	r.prev, r.cur = r.cur, r.prev[:0]
	r.prevIdx.reset()
	r.curIdx.reset()
	r.prevAt = r.now
}
