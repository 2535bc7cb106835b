package engine

import (
	"fmt"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Dynamic is a collector whose metrics change while the agent runs (the
// MMV files of instrumented programs). Before each sample the runner asks
// Refresh, which looks at the source and reports whether Source would
// now give other metrics; the runner then places them in a new schema
// (cache.Front.Replace) with a new history that carries the unchanged
// metrics' samples over (carry.go), and the sample publishes them.
// Readers see the change at their next fetch. A refused placement (the
// schema cannot take the new metrics) keeps the old ones, with a warning,
// until Refresh reports the next change.
type Dynamic interface {
	Refresh(now time.Time) (changed bool)
}

// DynamicWindowed is how many figures over client intervals (rates and
// peaks) a dynamic source may have: each client's marks for them are
// reserved at start. Figures past it (those of the metrics listed last)
// are left out, with a warning at most once a minute.
const DynamicWindowed = 4096

// dynamicState is a Dynamic collector's placement of its metrics.
type dynamicState struct {
	on bool // the collector is a Dynamic one
	// kBase is the first of the DynamicWindowed client marks reserved for
	// its figures, and schema the one its metrics were last placed in (the
	// loop's own; nil: the runner's).
	kBase  int
	schema *cache.Schema
}

// capWindowed bounds a dynamic source's figures by DynamicWindowed.
func (e *entry) capWindowed(ws []windowed) []windowed {
	if len(ws) <= DynamicWindowed {
		return ws
	}
	e.warnEvery(fmt.Errorf("%d figures over client intervals, %d kept", len(ws), DynamicWindowed),
		"more figures over client intervals than a dynamic source may have; the rest are left out")
	return ws[:DynamicWindowed]
}

// schemaOr is the schema e's metrics are placed in now: the one a
// change placed them in, or shared, the runner's.
func (e *entry) schemaOr(shared *cache.Schema) *cache.Schema {
	if e.dynamic.schema != nil {
		return e.dynamic.schema
	}
	return shared
}

// refresh asks a dynamic collector whether its metrics changed and, if
// they did, places them anew: a new schema, its figures and a history
// that carries the unchanged metrics' samples over (carry.go). Each
// client's marks follow their figures to their new places; a new
// figure's start with none.
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
	old := e.hist()
	if old == nil {
		return // not attached yet
	}
	ws := e.capWindowed(windowedOf(src, derived))
	gen := old.gen + 1
	src.Metrics = append([]cache.Desc(nil), src.Metrics...)
	for i := range ws {
		wm := &ws[i]
		wm.desc.Compute = r.figures.compute(e, e.dynamic.kBase+i, wm, gen)
		src.Metrics = append(src.Metrics, wm.desc)
	}
	schema, err := r.front.Replace(e.source, src)
	if err != nil {
		e.warnEvery(err, "the source's new metrics were refused; it keeps its old ones")
		return
	}
	h := r.newHistoryOf(e, schema, own)
	h.windowed = ws
	// The new history is no one else's yet, and only this loop adds to
	// the old one: fetches wait on the lock only for the swap.
	carried := h.carryFrom(old)
	r.figures.mu.Lock()
	e.histPtr.Store(h)
	r.figures.clients.remap(e.dynamic.kBase, DynamicWindowed, marksFrom(e.windowed, ws))
	r.figures.mu.Unlock()
	e.windowed, e.derivedRates, e.dynamic.schema, e.builder = ws, own, schema, nil
	e.log.Info().Int("metrics", len(src.Metrics)).Int("carried", carried).Msg("the source's metrics changed")
}

// marksFrom maps each new figure to the old figure of the same metric,
// -1 for a new one. A figure whose counter changed its descriptor keeps
// its marks: its counter has no value before the change (carry.go), so
// the window counts only the steps since.
func marksFrom(old, now []windowed) []int {
	at := make(map[cache.MetricID]int, len(old))
	for j := range old {
		at[old[j].desc.ID] = j
	}
	from := make([]int, len(now))
	for i := range now {
		j, ok := at[now[i].desc.ID]
		if !ok || old[j].kind != now[i].kind || old[j].desc.Name != now[i].desc.Name {
			j = -1
		}
		from[i] = j
	}
	return from
}
