package engine

import (
	"runtime"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// The control metrics' cluster and the collector instance domain belong to
// the engine; the collectors' clusters start at 1 (collector/clusters.go).
const (
	clusterControl                = 0
	indomCollectors cache.InDomID = 0
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
	ctlInterval   = Metric("hostcache.control.interval", clusterControl, 0, cache.TypeI32, cache.SemDiscrete, cache.UnitsMSec, cache.InDomNone)
	ctlGeneration = Metric("hostcache.control.generation", clusterControl, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	ctlCInterval  = Metric("hostcache.control.collector.interval", clusterControl, 10, cache.TypeI32, cache.SemDiscrete, cache.UnitsMSec, indomCollectors)
	ctlSamples    = Metric("hostcache.control.collector.samples", clusterControl, 11, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlErrors     = Metric("hostcache.control.collector.errors", clusterControl, 12, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlDuration   = Metric("hostcache.control.collector.duration", clusterControl, 13, cache.TypeU64, cache.SemInstant, cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0), indomCollectors)
	ctlAge        = Metric("hostcache.control.collector.age", clusterControl, 14, cache.TypeU64, cache.SemInstant, cache.UnitsMSec, indomCollectors)
	ctlSkipped    = Metric("hostcache.control.collector.skipped", clusterControl, 15, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlResets     = Metric("hostcache.control.collector.resets", clusterControl, 16, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlLastOK     = Metric("hostcache.control.collector.last_success", clusterControl, 17, cache.TypeI64, cache.SemDiscrete, cache.UnitsMSec, indomCollectors)
	ctlPanics     = Metric("hostcache.control.collector.panics", clusterControl, 18, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlStalls     = Metric("hostcache.control.collector.stalls", clusterControl, 19, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlHistory    = Metric("hostcache.control.history", clusterControl, 3, cache.TypeU32, cache.SemDiscrete, cache.UnitsSec, cache.InDomNone)
	ctlClients    = Metric("hostcache.control.clients", clusterControl, 4, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	ctlHSamples   = Metric("hostcache.control.collector.history_samples", clusterControl, 20, cache.TypeU32, cache.SemInstant, cache.UnitsCount, indomCollectors)
	ctlHBytes     = Metric("hostcache.control.collector.history_bytes", clusterControl, 21, cache.TypeU64, cache.SemInstant, cache.UnitsByte, indomCollectors)
	ctlGoroutines = Metric("hostcache.control.goroutines", clusterControl, 2, cache.TypeU32, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
	ctlIdle       = Metric("hostcache.control.collector.idle", clusterControl, 22, cache.TypeU32, cache.SemInstant, cache.UnitsNone, indomCollectors)
	ctlReaders    = Metric("hostcache.control.collector.readers", clusterControl, 23, cache.TypeU32, cache.SemInstant, cache.UnitsCount, indomCollectors)
	ctlReaderAge  = Metric("hostcache.control.collector.reader_age", clusterControl, 24, cache.TypeU64, cache.SemInstant, cache.UnitsMSec, indomCollectors)
	ctlExtras     = Metric("hostcache.control.collector.extra_samples", clusterControl, 25, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomCollectors)
	ctlPhases     = Metric("hostcache.control.collector.reader_phases", clusterControl, 26, cache.TypeString, cache.SemInstant, cache.UnitsNone, indomCollectors)
)

// controlSource describes hostcache.control.* and the collector indom.
// Every control value is computed when it is read, from the runner's
// atomic counters: self-metrics are always current, and sampling does not
// pay for rebuilding them.
func (r *Runner) controlSource() cache.Source {
	computed := func(d cache.Desc, f func(r *cache.Request, dst []cache.Value) []cache.Value) cache.Desc {
		d.Compute = f
		return d
	}
	perEntry := func(d cache.Desc, value func(e *entry) (int64, bool)) cache.Desc {
		return computed(d, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			for i, e := range r.entries {
				if v, ok := value(e); ok {
					dst = append(dst, cache.Value{Inst: uint32(i), Bits: uint64(v)})
				}
			}
			return dst
		})
	}
	always := func(f func(e *entry) int64) func(e *entry) (int64, bool) {
		return func(e *entry) (int64, bool) { return f(e), true }
	}
	return cache.Source{
		Name: ControlSourceName,
		Metrics: append([]cache.Desc{
			computed(ctlInterval, func(_ *cache.Request, dst []cache.Value) []cache.Value {
				return append(dst, cache.I32Value(cache.InstNone, int32(r.intervals.defaultMS.Load())))
			}),
			computed(ctlGeneration, func(q *cache.Request, dst []cache.Value) []cache.Value {
				return append(dst, cache.U64Value(cache.InstNone, q.Snap.Generation))
			}),
			perEntry(ctlCInterval, always(func(e *entry) int64 { return e.sched.intervalMS.Load() })),
			perEntry(ctlSamples, always(func(e *entry) int64 { return int64(e.stats.samples.Load()) })),
			perEntry(ctlErrors, always(func(e *entry) int64 { return int64(e.stats.errors.Load()) })),
			perEntry(ctlDuration, always(func(e *entry) int64 { return e.stats.durationUS.Load() })),
			perEntry(ctlSkipped, always(func(e *entry) int64 { return int64(e.stats.skipped.Load()) })),
			perEntry(ctlResets, always(func(e *entry) int64 { return int64(e.stats.resets.Load()) })),
			perEntry(ctlPanics, always(func(e *entry) int64 { return int64(e.stats.panics.Load()) })),
			perEntry(ctlStalls, always(func(e *entry) int64 { return int64(e.stats.stalls.Load()) })),
			perEntry(ctlLastOK, func(e *entry) (int64, bool) { v := e.stats.lastOKms.Load(); return v, v != 0 }),
			computed(ctlAge, r.appendAges),
			computed(ctlHistory, func(_ *cache.Request, dst []cache.Value) []cache.Value {
				return append(dst, cache.U32Value(cache.InstNone, uint32(r.budget.span.Load()/1000)))
			}),
			computed(ctlClients, func(_ *cache.Request, dst []cache.Value) []cache.Value {
				return append(dst, cache.U32Value(cache.InstNone, uint32(r.figures.clients.count())))
			}),
			perEntry(ctlHSamples, func(e *entry) (int64, bool) {
				if e.hist() == nil {
					return 0, false
				}
				return int64(e.hist().held()), true
			}),
			perEntry(ctlHBytes, func(e *entry) (int64, bool) {
				if e.hist() == nil {
					return 0, false
				}
				return e.hist().bytes.Load(), true
			}),
			perEntry(ctlIdle, always(func(e *entry) int64 {
				if e.idle.slowed.Load() {
					return 1
				}
				return 0
			})),
			perEntry(ctlReaders, always(func(e *entry) int64 { return int64(e.follow.count.Load()) })),
			perEntry(ctlReaderAge, always(func(e *entry) int64 { return e.follow.oldestMS.Load() })),
			perEntry(ctlExtras, always(func(e *entry) int64 { return int64(e.follow.extras.Load()) })),
			computed(ctlPhases, r.appendReaderPhases),
			computed(ctlGoroutines, appendGoroutines),
		}, append(r.recordMetrics(), r.freshMetrics(computed, perEntry)...)...),
		InDoms: append([]cache.InDomDesc{{ID: indomCollectors, Name: "collectors",
			Labels: []cache.Label{cache.StringLabel("indom_name", "per collector")}}}, freshInDoms()...),
	}
}

// appendAges computes how old each collector's published data is.
func (r *Runner) appendAges(q *cache.Request, dst []cache.Value) []cache.Value {
	for i, e := range r.entries {
		p := q.Snap.Part(e.source)
		if p == nil {
			continue
		}
		age := q.Now.Sub(p.Sampled).Milliseconds()
		if age < 0 {
			age = 0
		}
		dst = append(dst, cache.U64Value(uint32(i), uint64(age)))
	}
	return dst
}

// appendReaderPhases describes each collector's readers: their periods
// and phases, how old a sample each was served, and how the plan serves
// it. It builds strings: it is read by administrators, not logged often.
func (r *Runner) appendReaderPhases(_ *cache.Request, dst []cache.Value) []cache.Value {
	for i, e := range r.entries {
		dst = append(dst, cache.StringValue(uint32(i), e.follow.describe()))
	}
	return dst
}

// appendGoroutines reports the agent's goroutine count: a leak shows as
// growth over a soak.
func appendGoroutines(_ *cache.Request, dst []cache.Value) []cache.Value {
	return append(dst, cache.U32Value(cache.InstNone, uint32(runtime.NumGoroutine())))
}

// publishControl publishes the collector instance domain, once: the control
// values themselves are computed at read time.
func (r *Runner) publishControl() {
	b := r.schema.NewBuilder(r.controlIndex, time.Now())
	b.SetInDom(indomCollectors, r.instances)
	buckets, shares := freshInstances()
	b.SetInDom(indomAgeBuckets, buckets)
	b.SetInDom(indomAgeShares, shares)
	p, err := b.Part()
	if err != nil {
		r.log.Error().Err(err).Msg("building control metrics")
		return
	}
	r.front.Publish(r.controlIndex, p)
}
