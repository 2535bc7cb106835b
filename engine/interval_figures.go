package engine

import (
	"math"
	"sync"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// intervalFigures computes the figures over each client's interval (rates,
// derived figures, peaks) when a fetch reads them. Fetches are served one
// at a time; mu keeps the scratch window safe whatever serves them.
type intervalFigures struct {
	clients *clients
	mu      sync.Mutex
	w       Window
}

// bounds finds the window metric k of entry e is computed over for the
// request's client: from the sample that client's previous fetch of k
// ended at to the sample of the published part, and records the new end.
//
// A first fetch, or one with no new sample since the last, gets the
// newest sampling step. A start the ring no longer keeps becomes the
// oldest sample it keeps. No window is shorter than half the collector's
// interval: a start that close to the end moves one sample back, so a
// restart's first, few-millisecond step never becomes a rate.
func (fg *intervalFigures) bounds(q *cache.Request, e *entry, h *history,
	k int) (start, end *sample, part *cache.Part) {
	part = q.Snap.Part(e.source)
	if part == nil || part.Stale(q.Now) || h == nil {
		return nil, nil, nil
	}
	end = h.at(part.Seq)
	if end == nil {
		return nil, nil, nil
	}
	// The mark moves even when no figure can be given yet: the client's
	// next interval starts where this fetch ended.
	seen := fg.clients.swap(q.Client, k, end.seq)
	if end.seq == 0 {
		return nil, nil, nil
	}
	s0 := end.seq - 1
	if seen != 0 && seen-1 < end.seq {
		s0 = seen - 1
	}
	start = h.at(s0)
	for start == nil && s0+1 < end.seq {
		s0++
		start = h.at(s0)
	}
	minSpan := e.interval() / 2
	for start != nil && end.at.Sub(start.at) < minSpan {
		if start.seq == 0 {
			return nil, nil, nil
		}
		start = h.at(start.seq - 1)
	}
	if start == nil {
		return nil, nil, nil
	}
	return start, end, part
}

// compute returns the Compute function of windowed metric k of entry e,
// placed with its source's history generation gen: a read through an
// older or newer schema than the history's gives no value, as k may be
// another figure's there.
func (fg *intervalFigures) compute(e *entry, k int, wm *windowed,
	gen uint64) func(q *cache.Request, dst []cache.Value) []cache.Value {
	return func(q *cache.Request, dst []cache.Value) []cache.Value {
		fg.mu.Lock()
		defer fg.mu.Unlock()
		// One history for the whole read: a dynamic source's is replaced
		// under fg.mu when its metrics change.
		h := e.hist()
		if h == nil || h.gen != gen {
			return dst
		}
		start, end, part := fg.bounds(q, e, h, k)
		if end == nil {
			return dst
		}
		return fg.values(h, part, start, end, wm, dst)
	}
}

// values appends windowed metric wm's values over start to end, one per
// instance its like metric has at the end.
func (fg *intervalFigures) values(h *history, part *cache.Part, start, end *sample, wm *windowed,
	dst []cache.Value) []cache.Value {
	t, ok := h.trackedID(wm.like)
	if !ok {
		return dst
	}
	lo, hi := end.layout.span(t)
	for p := lo; p < hi; p++ {
		inst := end.layout.lists[t][p-lo]
		var v cache.Value
		switch wm.kind {
		case kindFigure:
			v, ok = fg.figure(h, part, start, end, wm, inst, p-lo)
		case kindMaxStep, kindMinStep:
			v, ok = fg.stepPeak(h, part, start, end, wm, inst, p-lo)
		default:
			v, ok = fg.samplePeak(h, start, end, wm, t, inst, p-lo)
		}
		if ok {
			dst = append(dst, v)
		}
	}
	return dst
}

// figure is a rate or derived figure over the whole window.
func (fg *intervalFigures) figure(h *history, part *cache.Part, start, end *sample, wm *windowed,
	inst uint32, ord int) (cache.Value, bool) {
	fg.w.set(h, part, start, end)
	fg.w.ord = ord
	f, ok := wm.value(&fg.w, inst)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return cache.Value{}, false
	}
	return cache.DoubleValue(inst, f), true
}

// stepPeak is the highest (or lowest) of a figure over each step of the
// grid that ends inside the window: from one grid sample to the next,
// extra samples (taken for a reader's phase) being no step's end, so
// peaks are over steps of the collector's interval whatever the readers.
// The first such step may begin before the window: each grid step then
// belongs to the one window of a periodic client that holds its end. A
// window with no grid step ending in it is one step itself. A step in
// which a counter was reset gives that counter's instance no figure (its
// Delta counts no step), and only it: the source's other counters keep
// their peaks over the step.
func (fg *intervalFigures) stepPeak(h *history, part *cache.Part, start, end *sample, wm *windowed,
	inst uint32, ord int) (cache.Value, bool) {
	best, found, stepped := 0.0, false, false
	better := func(f float64) {
		if !found || (wm.kind == kindMaxStep && f > best) || (wm.kind == kindMinStep && f < best) {
			best, found = f, true
		}
	}
	prev := gridAtOrBefore(h, start)
	for seq := start.seq + 1; seq <= end.seq; seq++ {
		s := h.at(seq)
		if seq == end.seq {
			s = end
		}
		if s == nil {
			prev = nil // a step across a lost sample is no step
			continue
		}
		if s.extra {
			continue
		}
		if prev != nil {
			stepped = true
			if f, ok := fg.stepFigure(h, part, prev, s, wm, inst, ord); ok {
				better(f)
			}
		}
		prev = s
	}
	if !stepped {
		if f, ok := fg.stepFigure(h, part, start, end, wm, inst, ord); ok {
			better(f)
		}
	}
	return cache.DoubleValue(inst, best), found
}

// stepFigure is wm's figure of inst over the step from prev to s.
func (fg *intervalFigures) stepFigure(h *history, part *cache.Part, prev, s *sample, wm *windowed,
	inst uint32, ord int) (float64, bool) {
	fg.w.set(h, part, prev, s)
	fg.w.ord = ord
	f, ok := wm.value(&fg.w, inst)
	return f, ok && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// maxExtraRun bounds the walk back to a grid sample: a source has at most
// a few extra samples between two grid samples.
const maxExtraRun = 64

// gridAtOrBefore is s, or the newest grid sample before it; nil when the
// history no longer keeps it.
func gridAtOrBefore(h *history, s *sample) *sample {
	for k := 0; s != nil && s.extra && k < maxExtraRun && s.seq > 0; k++ {
		s = h.at(s.seq - 1)
	}
	if s == nil || s.extra {
		return nil
	}
	return s
}

// samplePeak is the highest (or lowest) sample of an instant metric inside
// the window (the start excluded: it belongs to the previous interval):
// its grid samples and its end, the value the client is shown; the other
// extra samples are left out, as from the step peaks.
func (fg *intervalFigures) samplePeak(h *history, start, end *sample, wm *windowed, t int,
	inst uint32, ord int) (cache.Value, bool) {
	var bits uint64
	best, found := 0.0, false
	for seq := start.seq + 1; seq <= end.seq; seq++ {
		s := h.at(seq)
		if seq == end.seq {
			s = end
		}
		if s == nil || (s.extra && s != end) {
			continue
		}
		p, ok := s.layout.find(t, inst, ord)
		if !ok {
			continue
		}
		f := decode(wm.base.Type, s.vals.at(p))
		if !found || (wm.kind == kindMaxSample && f > best) || (wm.kind == kindMinSample && f < best) {
			best, bits, found = f, s.vals.at(p), true
		}
	}
	return cache.Value{Inst: inst, Bits: bits}, found
}
