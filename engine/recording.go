package engine

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// SourceHistory is one source's kept samples over a span, as the flight
// recorder writes them out: every number the source published, with the
// instance tables of each sample and its exact time.
type SourceHistory struct {
	Name    string
	Metrics []cache.Desc     // the kept metrics, indexed as Sample.Values takes them
	InDoms  []cache.InDomID  // indexed as Sample.InDom takes them
	Strings []cache.Desc     // the source's string metrics: not kept, see Newest
	Newest  *cache.Part      // the newest published part (nil before the first)
	Samples []RecordedSample // oldest first
	// Computed are the source's rates and derived figures.
	Computed []cache.Desc
	// Schema is the one the history's metrics are placed in; Dynamic says
	// the source's metrics change while the agent runs, so that its
	// Schema is the one to describe every source with: the others'
	// metrics are alike in every schema.
	Schema  *cache.Schema
	Dynamic bool
	figures []int // their windowed metrics
	h       *history
	scratch *intervalFigures // its own scratch: writing never waits for a fetch
}

// RecordedSample is a read-only view of one kept sample.
type RecordedSample struct{ s *sample }

// At is when the sample was taken.
func (rs RecordedSample) At() time.Time { return rs.s.at }

// Reset reports whether some counter went backwards since the sample before.
func (rs RecordedSample) Reset() bool { return rs.s.reset }

// Values returns the instances and raw values (cache.Value.Bits) of kept
// metric m; the caller must not modify them.
func (rs RecordedSample) Values(m int) (insts []uint32, bits []uint64) {
	lo, hi := rs.s.layout.span(m)
	if rs.s.vals.chunks == nil {
		return rs.s.layout.lists[m], rs.s.vals.flat[lo:hi]
	}
	return rs.s.layout.lists[m], rs.s.vals.appendRange(nil, lo, hi)
}

// InDom returns instance domain k's table as it was at the sample (nil
// when the source had not published it).
func (rs RecordedSample) InDom(k int) *cache.Instances { return rs.s.indoms[k] }

// History returns, for every collector, the samples its history keeps
// that were taken at or after since. Taking it costs a walk of the rings'
// pointers; the samples stay valid however long the caller holds them.
func (r *Runner) History(since time.Time) []SourceHistory {
	snap := r.front.Load()
	var out []SourceHistory
	for _, e := range r.entries {
		sh := SourceHistory{Name: e.c.Name(), Newest: snap.Part(e.source)}
		h := e.hist()
		if h == nil {
			out = append(out, sh)
			continue
		}
		// The history's own schema: a dynamic source's changes with its
		// metrics, and a part of another schema is not this history's.
		if h.schema.Epoch(e.source) != snap.Schema.Epoch(e.source) {
			sh.Newest = nil
		}
		for i, d := range h.schema.Descs() {
			if h.schema.SourceOf(i) == e.source && d.Type == cache.TypeString && d.Compute == nil {
				sh.Strings = append(sh.Strings, d)
			}
		}
		for _, i := range h.tracked {
			sh.Metrics = append(sh.Metrics, h.schema.Descs()[i])
		}
		sh.InDoms = h.indoms
		sh.Schema, sh.Dynamic = h.schema, e.dynamic.on
		sh.Samples = keptSince(h, since)
		sh.h, sh.scratch = h, &intervalFigures{}
		for k := range h.windowed {
			// A peak over one step is the figure or the sample itself:
			// only the figures are worth writing out.
			if h.windowed[k].kind == kindFigure {
				sh.Computed = append(sh.Computed, h.windowed[k].desc)
				sh.figures = append(sh.figures, k)
			}
		}
		out = append(out, sh)
	}
	return out
}

// keptSince lists h's samples taken at or after since, oldest first.
func keptSince(h *history, since time.Time) []RecordedSample {
	var out []RecordedSample
	for seq := h.next.Load(); seq > 0; seq-- {
		s := h.at(seq - 1)
		if s == nil || s.at.Before(since) {
			break
		}
		out = append(out, RecordedSample{s})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// StepValues appends computed metric c's values over the step from sample
// k-1 to sample k: what a client fetching at each of the two samples would
// have been given. Published values a figure divides by (hinv.ncpu) are
// taken from the newest part.
func (sh *SourceHistory) StepValues(c, k int, dst []cache.Value) []cache.Value {
	if k < 1 || k >= len(sh.Samples) || sh.h == nil || sh.Newest == nil {
		return dst
	}
	start, end := sh.Samples[k-1].s, sh.Samples[k].s
	if end.seq != start.seq+1 {
		return dst // a sample between them is gone: no step to give
	}
	return sh.scratch.values(sh.h, sh.Newest, start, end, &sh.h.windowed[sh.figures[c]], dst)
}
