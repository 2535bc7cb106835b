package collector

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// rateKey names one counter instance.
type rateKey struct {
	id   cache.MetricID
	inst uint32
}

// rates remembers the previous raw value of every counter a collector
// publishes and derives per-second rates over the true interval between two
// samples, measured on the monotonic clock.
//
// A counter that went backwards (a reset, a wrap, a re-created device) gives
// no rate for that interval: never a negative value or a spike. Until two
// samples exist there is no rate at all.
type rates struct {
	prev   map[rateKey]uint64
	cur    map[rateKey]uint64
	prevAt time.Time
	now    time.Time
	resets uint64 // intervals skipped because a counter went backwards
}

func newRates() *rates {
	return &rates{prev: map[rateKey]uint64{}, cur: map[rateKey]uint64{}}
}

// begin starts a sample taken at now.
func (r *rates) begin(now time.Time) {
	r.now = now
	clear(r.cur)
}

// counter publishes counter d's value v for inst, and its rate when the
// previous sample had this instance and the counter did not go backwards.
func (r *rates) counter(b *cache.Builder, d *cache.Desc, inst uint32, v uint64) {
	if d.Type == cache.TypeU32 {
		// A 32-bit counter has the kernel's width: a wrap shows as going
		// backwards, and that interval gets no rate.
		v &= 0xffffffff
	}
	b.SetU64(d.ID, inst, v)
	k := rateKey{d.ID, inst}
	r.cur[k] = v
	rate, ok := r.rate(k, v, d.Units)
	if ok {
		b.SetDouble(rateID(d.ID), inst, rate)
	}
}

// rate computes the per-second rate of k, or false when there is none.
func (r *rates) rate(k rateKey, v uint64, u cache.Units) (float64, bool) {
	old, seen := r.prev[k]
	if !seen || r.prevAt.IsZero() {
		return 0, false
	}
	if v < old {
		r.resets++
		return 0, false
	}
	secs := r.now.Sub(r.prevAt).Seconds()
	if secs <= 0 {
		return 0, false
	}
	_, factor := cache.RateOf(u)
	return float64(v-old) / secs * factor, true
}

// delta returns the growth of k since the previous sample, if known.
func (r *rates) delta(k rateKey) (uint64, bool) {
	old, seen := r.prev[k]
	v, ok := r.cur[k]
	if !seen || !ok || v < old {
		return 0, false
	}
	return v - old, true
}

// interval returns the seconds between the previous sample and this one.
func (r *rates) interval() (float64, bool) {
	if r.prevAt.IsZero() {
		return 0, false
	}
	secs := r.now.Sub(r.prevAt).Seconds()
	return secs, secs > 0
}

// commit makes this sample the previous one. Call it only after a sample
// that was published, so a failed read never shortens the next interval.
func (r *rates) commit() {
	r.prev, r.cur = r.cur, r.prev
	r.prevAt = r.now
}
