package engine

import (
	"fmt"
	"math"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Bound is the most a counter can physically grow per second of a
// sampling step: a CPU's time grows by at most a second each second, and
// a disk is busy for at most a second each second. A step that grows more
// read something absurd (a field of 2^64-1, a sum that took one in): it
// is a reset, as a counter that went backwards is, left out of the
// instance's figures and counted in hostcache.control.collector.resets.
//
// A step of s seconds may grow by at most PerSecond * n * (s + Slack),
// where n is how many units the counter covers at the step (one unless
// Units or UnitsOf says otherwise). A step whose n is 0 is not checked:
// nothing says how many units there are.
type Bound struct {
	// PerSecond is the most one unit grows per second, in the counter's
	// own units: 1000 for milliseconds of CPU or disk time.
	PerSecond float64
	// Units, when set, is a whole-number metric of the same source,
	// without instances, that counts the units at a sample (hinv.ncpu for
	// the time of all CPUs). The larger of its values at the step's two
	// ends is n: a CPU that went offline inside the step still ran in it.
	Units *cache.Desc
	// UnitsOf, when set instead, gives n for an instance, fixed for the
	// agent's life (the CPUs of a NUMA node).
	UnitsOf func(inst uint32) uint64
	// Slack is added to each step's duration: the jitter of the source's
	// own accounting, which a real kernel's counters show over short steps.
	Slack time.Duration
}

// Bounded gives a counter its Bound.
type Bounded struct {
	Counter cache.MetricID
	Bound   Bound
}

// WithBound declares counter d's Bound, for a collector's Bounds.
func WithBound(d cache.Desc, b Bound) Bounded {
	return Bounded{Counter: d.ID, Bound: b}
}

// halfRange is half the range of a counter type: the largest step a
// counter can plausibly take in one interval.
func halfRange(t cache.Type) uint64 {
	if t == cache.TypeU32 || t == cache.TypeI32 {
		return 1 << 31
	}
	return 1 << 63
}

// plausible reports whether a counter's step from a to b is growth of at
// most most. A counter that went backwards was reset or wrapped; one that
// jumped by more than half its type's range in one step was reset too (a
// driver that reports -1, a re-created device starting high), and so was
// one that grew beyond its Bound (most is then less): counting any of
// them as growth would publish a rate such as 7e19/s. Such a step is left
// out, never a rate.
func plausible(a, b, most uint64) bool {
	return b >= a && b-a <= most
}

// stepLimit is a tracked counter's Bound as the history applies it.
type stepLimit struct {
	perSecond float64
	units     int // tracked position of Bound.Units; -1: none
	unitsOf   func(inst uint32) uint64
	slack     float64 // Bound.Slack in seconds
}

// boundBy takes the Bounds of collector c, if it declares any. The runner
// calls it once, after newHistory. A bound on a metric the history does
// not watch for resets, or whose Units it does not keep, is a mistake in
// the declarations: it panics at start-up.
func (h *history) boundBy(c Collector) {
	b, ok := c.(Bounder)
	if !ok {
		return
	}
	for _, bd := range b.Bounds() {
		h.setBound(bd)
	}
}

func (h *history) setBound(bd Bounded) {
	t, ok := h.trackedID(bd.Counter)
	if !ok || !h.counter[t] {
		panic(fmt.Sprintf("engine: a Bound on %v, which is no counter its source's history watches",
			bd.Counter))
	}
	l := &stepLimit{perSecond: bd.Bound.PerSecond, units: -1, unitsOf: bd.Bound.UnitsOf,
		slack: bd.Bound.Slack.Seconds()}
	if u := bd.Bound.Units; u != nil {
		if l.units, ok = h.trackedID(u.ID); !ok {
			panic(fmt.Sprintf("engine: the Bound on %v counts units "+
				"with %s, which its source does not publish",
				bd.Counter, u.Name))
		}
	}
	if h.limits == nil {
		h.limits = make([]*stepLimit, len(h.tracked))
	}
	h.limits[t] = l
}

// most is the most tracked counter t may grow over the step from prev to
// s, secs long, whatever the instance: half its type's range, or less
// under a Bound. A Bound with UnitsOf depends on the instance: it is
// returned to be applied to each.
func (h *history) most(t int, prev, s *sample, secs float64) (uint64, *stepLimit) {
	if h.limits == nil || h.limits[t] == nil {
		return h.half[t], nil
	}
	l := h.limits[t]
	if l.unitsOf != nil {
		return h.half[t], l
	}
	n := uint64(1)
	if l.units >= 0 {
		n = max(unitsIn(prev, l.units), unitsIn(s, l.units))
	}
	return min(h.half[t], l.most(n, secs)), nil
}

// most is the most n units may grow over a step of secs seconds; no
// limit when n is 0 (nothing says how many units there are).
func (l *stepLimit) most(n uint64, secs float64) uint64 {
	if n == 0 {
		return math.MaxUint64
	}
	f := l.perSecond * float64(n) * (secs + l.slack)
	switch {
	case f >= 1<<64:
		return math.MaxUint64
	case f > 0:
		return uint64(f)
	}
	return 0
}

// unitsIn is the value of tracked metric t (without instances) in s, 0
// when s has none.
func unitsIn(s *sample, t int) uint64 {
	if p, ok := s.layout.find(t, cache.InstNone, 0); ok {
		return s.vals.at(p)
	}
	return 0
}
