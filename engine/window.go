package engine

import (
	"math"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Window is the span of one source's samples a figure is computed over:
// from the sample a client saw at its previous fetch (start) to the newest
// (end), or one sampling step of it when peaks are computed. A step in
// which a counter instance went backwards (a reset, a wrap, a re-created
// device), jumped implausibly or grew beyond its Bound is left out of that
// instance's delta and seconds, so it costs the figure that step, never a
// spike or a negative value.
type Window struct {
	h          *history
	part       *cache.Part // the published part the window ends at
	start, end *sample
	secs       float64
	ord        int // the instance's ordinal in its metric: a lookup hint
}

// set makes w cover start to end and works out its seconds.
func (w *Window) set(h *history, part *cache.Part, start, end *sample) {
	w.h, w.part, w.start, w.end, w.ord = h, part, start, end, 0
	w.secs = w.seconds()
}

// clean reports whether no step of the window had a reset.
func (w *Window) clean() bool { return w.start.resets == w.end.resets }

// Seconds is the time the window covers, less its reset steps.
func (w *Window) Seconds() float64 { return w.secs }

// Span is the whole time from the window's start to its end.
func (w *Window) Span() float64 { return w.end.at.Sub(w.start.at).Seconds() }

func (w *Window) seconds() float64 {
	if w.clean() {
		return w.end.at.Sub(w.start.at).Seconds()
	}
	var secs float64
	prev := w.start
	for seq := w.start.seq + 1; seq <= w.end.seq; seq++ {
		s := w.h.at(seq)
		if s == nil {
			continue // overwritten while we read: that step is lost
		}
		if !s.reset && prev.seq == seq-1 {
			secs += s.at.Sub(prev.at).Seconds()
		}
		prev = s
	}
	return secs
}

// Delta returns how much counter id of instance inst grew over the window,
// counting only the steps in which the instance existed at both ends and
// was no reset: another instance's reset costs this one nothing.
func (w *Window) Delta(id cache.MetricID, inst uint32) (uint64, bool) {
	d, _, ok := w.DeltaSeconds(id, inst)
	return d, ok
}

// DeltaSeconds is Delta with the seconds of the steps it counted: the
// denominator of a per-second figure of this instance.
func (w *Window) DeltaSeconds(id cache.MetricID, inst uint32) (uint64, float64, bool) {
	t, ok := w.h.trackedID(id)
	if !ok {
		return 0, 0, false
	}
	a, _, okA := w.valueIn(w.start, t, inst)
	b, _, okB := w.valueIn(w.end, t, inst)
	if w.clean() && okA && okB && b >= a {
		return b - a, w.secs, true // no step of the source was implausible
	}
	return w.walk(t, inst, a, okA)
}

// walk sums the growth of (t, inst) and the seconds over the good steps:
// those the instance existed at both ends of and that were no reset,
// after the instance's last renewal.
func (w *Window) walk(t int, inst uint32, prevV uint64, prevOK bool) (uint64, float64, bool) {
	var sum uint64
	var secs float64
	counted := false
	prev := w.start
	for seq := w.start.seq + 1; seq <= w.end.seq; seq++ {
		s := w.h.at(seq)
		if seq == w.end.seq {
			s = w.end
		}
		if s == nil {
			prevOK = false
			continue
		}
		v, p, ok := w.valueIn(s, t, inst)
		if ok && s.renewedAt(p) {
			// A new thing under the id: its figure starts here.
			sum, secs, counted = 0, 0, false
		}
		if ok && prevOK && plausible(prevV, v, w.h.half[t]) && !s.badAt(p) {
			sum += v - prevV
			secs += s.at.Sub(prev.at).Seconds()
			counted = true
		}
		prev, prevV, prevOK = s, v, ok
	}
	return sum, secs, counted
}

// Rate is the counter's growth per second over the steps Delta counts,
// scaled by its rate factor: an instance that appeared inside the window
// is rated from then on.
func (w *Window) Rate(id cache.MetricID, inst uint32, factor float64) (float64, bool) {
	d, secs, ok := w.DeltaSeconds(id, inst)
	if !ok || secs <= 0 {
		return 0, false
	}
	return float64(d) / secs * factor, true
}

// Published returns a value of the part the window ends at: a discrete
// metric such as hinv.ncpu that a figure divides by.
func (w *Window) Published(id cache.MetricID, inst uint32) (cache.Value, bool) {
	i, ok := w.h.schema.Index(id)
	if !ok {
		return cache.Value{}, false
	}
	for _, v := range w.part.NumsAt(i) {
		if v.Inst == inst {
			return cache.Value{Inst: v.Inst, Bits: v.Bits}, true
		}
	}
	return cache.Value{}, false
}

// valueIn returns the raw value of (t, inst) in sample s and its position.
func (w *Window) valueIn(s *sample, t int, inst uint32) (uint64, int, bool) {
	p, ok := s.layout.find(t, inst, w.ord)
	if !ok {
		return 0, 0, false
	}
	return s.vals.at(p), p, true
}

// decode reads raw bits of a value of type typ as a float64, to compare.
func decode(typ cache.Type, bits uint64) float64 {
	switch typ {
	case cache.TypeI32, cache.TypeI64:
		return float64(int64(bits))
	case cache.TypeFloat:
		return float64(math.Float32frombits(uint32(bits)))
	case cache.TypeDouble:
		return math.Float64frombits(bits)
	}
	return float64(bits)
}
