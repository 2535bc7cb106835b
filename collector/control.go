package collector

import (
	"runtime"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// ControlSourceName is the source that publishes hostcache.control.*.
const ControlSourceName = "control"

// Interval bounds for pmstore, in milliseconds. Below 100 ms sampling /proc
// costs more than it is worth; above an hour the data is not "cached" any more.
const (
	MinIntervalMS = 100
	MaxIntervalMS = 3600 * 1000
)

// Control metric items (cluster 0). Self-metrics are not counters with
// hostcache.rate twins: everything about the agent itself stays under
// hostcache.control.
var (
	ctlInterval   = metric(clusterControl, 0, "control.interval", cache.TypeI32, cache.SemDiscrete, cache.UnitsMSec, cache.InDomNone)
	ctlGeneration = metric(clusterControl, 1, "control.generation", cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	ctlCInterval  = metric(clusterControl, 10, "control.collector.interval", cache.TypeI32, cache.SemDiscrete, cache.UnitsMSec, indomCollectors)
	ctlSamples    = metric(clusterControl, 11, "control.collector.samples", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlErrors     = metric(clusterControl, 12, "control.collector.errors", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlDuration   = metric(clusterControl, 13, "control.collector.duration", cache.TypeU64, cache.SemInstant, cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0), indomCollectors)
	ctlAge        = metric(clusterControl, 14, "control.collector.age", cache.TypeU64, cache.SemInstant, cache.UnitsMSec, indomCollectors)
	ctlSkipped    = metric(clusterControl, 15, "control.collector.skipped", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlResets     = metric(clusterControl, 16, "control.collector.resets", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlLastOK     = metric(clusterControl, 17, "control.collector.last_success", cache.TypeI64, cache.SemDiscrete, cache.UnitsMSec, indomCollectors)
	ctlPanics     = metric(clusterControl, 18, "control.collector.panics", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlStalls     = metric(clusterControl, 19, "control.collector.stalls", cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlGoroutines = metric(clusterControl, 2, "control.goroutines", cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
)

// controlSource describes hostcache.control.* and the collector indom.
func (r *Runner) controlSource() cache.Source {
	age := ctlAge
	age.Compute = r.appendAges
	goroutines := ctlGoroutines
	goroutines.Compute = appendGoroutines
	return cache.Source{
		Name: ControlSourceName,
		Metrics: []cache.Desc{ctlInterval, ctlGeneration, ctlCInterval, ctlSamples,
			ctlErrors, ctlDuration, age, ctlSkipped, ctlResets, ctlLastOK, ctlPanics, ctlStalls, goroutines},
		InDoms: []cache.InDomDesc{{ID: indomCollectors, Name: "collectors"}},
	}
}

// appendAges computes, at read time, how old each collector's published data
// is: the one control value that must not itself be cached.
func (r *Runner) appendAges(s *cache.Snapshot, now time.Time, dst []cache.Value) []cache.Value {
	for i, e := range r.entries {
		p := s.Part(e.source)
		if p == nil {
			continue
		}
		age := now.Sub(p.Sampled).Milliseconds()
		if age < 0 {
			age = 0
		}
		dst = append(dst, cache.U64Value(uint32(i), uint64(age)))
	}
	return dst
}

// appendGoroutines reports the agent's goroutine count at read time: a
// leak shows as growth over a soak.
func appendGoroutines(_ *cache.Snapshot, _ time.Time, dst []cache.Value) []cache.Value {
	return append(dst, cache.U32Value(cache.InstNone, uint32(runtime.NumGoroutine())))
}

// publishControl rebuilds the control part from the runner's counters.
func (r *Runner) publishControl() {
	r.controlMu.Lock()
	defer r.controlMu.Unlock()
	b := r.schema.NewBuilder(r.controlIndex, time.Now())
	b.SetI64(ctlInterval.ID, cache.InstNone, r.defaultMS.Load())
	b.SetU64(ctlGeneration.ID, cache.InstNone, r.store.Load().Generation)
	for i, e := range r.entries {
		inst := uint32(i)
		b.SetI64(ctlCInterval.ID, inst, e.intervalMS.Load())
		b.SetU64(ctlSamples.ID, inst, e.samples.Load())
		b.SetU64(ctlErrors.ID, inst, e.errors.Load())
		b.SetU64(ctlDuration.ID, inst, uint64(e.durationUS.Load()))
		b.SetU64(ctlSkipped.ID, inst, e.skipped.Load())
		b.SetU64(ctlResets.ID, inst, e.resets.Load())
		b.SetU64(ctlPanics.ID, inst, e.panics.Load())
		b.SetU64(ctlStalls.ID, inst, e.stalls.Load())
		if ok := e.lastOKms.Load(); ok != 0 {
			b.SetI64(ctlLastOK.ID, inst, ok)
		}
	}
	b.SetInDom(indomCollectors, r.instances)
	p, err := b.Part()
	if err != nil {
		r.log.Error().Err(err).Msg("building control metrics")
		return
	}
	r.store.Publish(r.controlIndex, p)
}
