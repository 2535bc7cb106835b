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

// unitsUSec are microseconds: the unit of durations shorter than a millisecond.
var unitsUSec = cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0)

// Control metric items (cluster 0). Self-metrics are not counters with
// hostcache.rate twins: everything about the agent itself stays under
// hostcache.control.
var (
	ctlInterval = Row{Name: "hostcache.control.interval", Cluster: clusterControl, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemDiscrete, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc()
	ctlGeneration = Row{Name: "hostcache.control.generation", Cluster: clusterControl, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlCInterval = Row{Name: "hostcache.control.collector.interval", Cluster: clusterControl, Item: 10,
		Type: cache.TypeI32, Sem: cache.SemDiscrete, Units: cache.UnitsMSec, InDom: indomCollectors}.Desc()
	ctlSamples = Row{Name: "hostcache.control.collector.samples", Cluster: clusterControl, Item: 11,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlErrors = Row{Name: "hostcache.control.collector.errors", Cluster: clusterControl, Item: 12,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlDuration = Row{Name: "hostcache.control.collector.duration", Cluster: clusterControl, Item: 13,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: unitsUSec, InDom: indomCollectors}.Desc()
	ctlAge = Row{Name: "hostcache.control.collector.age", Cluster: clusterControl, Item: 14,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsMSec, InDom: indomCollectors}.Desc()
	ctlSkipped = Row{Name: "hostcache.control.collector.skipped", Cluster: clusterControl, Item: 15,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlResets = Row{Name: "hostcache.control.collector.resets", Cluster: clusterControl, Item: 16,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlLastOK = Row{Name: "hostcache.control.collector.last_success", Cluster: clusterControl, Item: 17,
		Type: cache.TypeI64, Sem: cache.SemDiscrete, Units: cache.UnitsMSec, InDom: indomCollectors}.Desc()
	ctlPanics = Row{Name: "hostcache.control.collector.panics", Cluster: clusterControl, Item: 18,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlStalls = Row{Name: "hostcache.control.collector.stalls", Cluster: clusterControl, Item: 19,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlHistory = Row{Name: "hostcache.control.history", Cluster: clusterControl, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsSec, InDom: cache.InDomNone}.Desc()
	ctlClients = Row{Name: "hostcache.control.clients", Cluster: clusterControl, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlHSamples = Row{Name: "hostcache.control.collector.history_samples", Cluster: clusterControl, Item: 20,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlHBytes = Row{Name: "hostcache.control.collector.history_bytes", Cluster: clusterControl, Item: 21,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: indomCollectors}.Desc()
	ctlGoroutines = Row{Name: "hostcache.control.goroutines", Cluster: clusterControl, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlIdle = Row{Name: "hostcache.control.collector.idle", Cluster: clusterControl, Item: 22,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomCollectors}.Desc()
	ctlReaders = Row{Name: "hostcache.control.collector.readers", Cluster: clusterControl, Item: 23,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlReaderAge = Row{Name: "hostcache.control.collector.reader_age", Cluster: clusterControl, Item: 24,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsMSec, InDom: indomCollectors}.Desc()
	ctlExtras = Row{Name: "hostcache.control.collector.extra_samples", Cluster: clusterControl, Item: 25,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlPhases = Row{Name: "hostcache.control.collector.reader_phases", Cluster: clusterControl, Item: 26,
		Type: cache.TypeString, Sem: cache.SemInstant, InDom: indomCollectors}.Desc()
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
			perEntry(ctlLastOK,
				func(e *entry) (int64, bool) { v := e.stats.lastOKms.Load(); return v, v != 0 }),
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
