package engine

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Dynamic is a collector whose metrics change while the agent runs (the
// MMV files of instrumented programs). Before each sample the runner asks
// Refresh, which looks at the source and reports whether Source would
// now give other metrics; the runner then places them in a new schema
// (cache.Front.Replace) with a new history, and the sample publishes
// them. The collector's other metrics' readers see the change at their
// next fetch.
type Dynamic interface {
	Refresh(now time.Time) (changed bool)
}

// DynamicWindowed is how many figures over client intervals (rates and
// peaks) a dynamic source may have: each client's marks for them are
// reserved at start. Figures past it are left out, with a warning.
const DynamicWindowed = 4096

// capWindowed bounds a dynamic source's figures by DynamicWindowed.
func (r *Runner) capWindowed(e *entry, ws []windowed) []windowed {
	if len(ws) <= DynamicWindowed {
		return ws
	}
	e.log.Warn().Int("figures", len(ws)).Int("kept", DynamicWindowed).
		Msg("more figures over client intervals than a dynamic source may have; the rest are left out")
	return ws[:DynamicWindowed]
}

// entrySchema is the schema e's metrics are placed in now.
func (r *Runner) entrySchema(e *entry) *cache.Schema {
	if e.schema != nil {
		return e.schema
	}
	return r.schema
}

// refresh asks a dynamic collector whether its metrics changed and, if
// they did, places them anew: a new schema, its figures, a history that
// continues the old one's sequence numbers (so that no window spans the
// change: the old samples are not in it) and cleared client marks.
func (r *Runner) refresh(e *entry, now time.Time) {
	if !e.c.(Dynamic).Refresh(now) {
		return
	}
	src := e.c.Source()
	var derived []Derived
	if d, ok := e.c.(Deriver); ok {
		derived = d.Derived()
	}
	own := map[cache.MetricID]bool{}
	for _, d := range derived {
		own[d.Desc.ID] = true
	}
	ws := r.capWindowed(e, windowedOf(src, derived))
	src.Metrics = append([]cache.Desc(nil), src.Metrics...)
	for i := range ws {
		wm := &ws[i]
		wm.desc.Compute = r.reader.compute(e, e.kBase+i, wm)
		src.Metrics = append(src.Metrics, wm.desc)
	}
	schema, err := r.front.Replace(e.source, src)
	if err != nil {
		e.warnOnce(err, "the source's new metrics were refused; it keeps its old ones")
		return
	}
	h := r.newHistoryOf(e, schema, own)
	h.windowed = ws
	r.reader.mu.Lock()
	if old := e.hist(); old != nil {
		h.continueFrom(old)
	}
	e.histPtr.Store(h)
	r.reader.clients.clear(e.kBase, e.kBase+DynamicWindowed)
	r.reader.mu.Unlock()
	e.windowed, e.derivedRates, e.schema, e.builder = ws, own, schema, nil
	e.log.Info().Int("metrics", len(src.Metrics)).Msg("the source's metrics changed")
}

// newHistoryOf is a history of e's metrics in schema.
func (r *Runner) newHistoryOf(e *entry, schema *cache.Schema, own map[cache.MetricID]bool) *history {
	tracked := trackedOf(schema, e.source)
	depth := int(r.history/e.interval()) + 1
	if len(tracked) == 0 {
		depth = 2
	}
	h := newHistory(schema, tracked, depth, own)
	h.indoms = schema.InDomsOf(e.source)
	h.boundBy(e.c)
	return h
}
