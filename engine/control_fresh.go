package engine

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// The instance domains of the fetch freshness metrics: the age buckets
// and the percentiles. 4000 on are the engine's, below the MMV files'
// 4096 (collector/clusters.go).
const (
	indomAgeBuckets cache.InDomID = 4000
	indomAgeShares  cache.InDomID = 4001
)

// The self-metrics of fetch freshness (fresh.go), in the control cluster.
var (
	ctlFreshWithin = Row{Name: "hostcache.control.fresh.within", Cluster: clusterControl, Item: 5,
		Type: cache.TypeI32, Sem: cache.SemDiscrete, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc()
	ctlFetchWait = Row{Name: "hostcache.control.fresh.wait", Cluster: clusterControl, Item: 6,
		Type: cache.TypeI32, Sem: cache.SemDiscrete, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc()
	ctlFreshMisses = Row{Name: "hostcache.control.fresh.misses", Cluster: clusterControl, Item: 7,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlFreshAge = Row{Name: "hostcache.control.fresh.age", Cluster: clusterControl, Item: 8,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: unitsUSec, InDom: indomAgeShares}.Desc()
	ctlFreshAges = Row{Name: "hostcache.control.fresh.ages", Cluster: clusterControl, Item: 9,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomAgeBuckets}.Desc()
	ctlFreshSampled = Row{Name: "hostcache.control.fresh.sampled", Cluster: clusterControl, Item: 27,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	ctlFetchSamples = Row{Name: "hostcache.control.collector.fetch_samples", Cluster: clusterControl, Item: 28,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
	ctlFetchMisses = Row{Name: "hostcache.control.collector.fetch_misses", Cluster: clusterControl, Item: 29,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCollectors}.Desc()
)

// freshInDoms are the freshness metrics' instance domains.
func freshInDoms() []cache.InDomDesc {
	named := func(indomName string) []cache.Label {
		return []cache.Label{cache.StringLabel("indom_name", indomName)}
	}
	return []cache.InDomDesc{
		{ID: indomAgeBuckets, Name: "fetch sample ages", Labels: named("per age bucket")},
		{ID: indomAgeShares, Name: "fetch age percentiles", Labels: named("per percentile")},
	}
}

// freshInstances are the members of the freshness instance domains, which
// never change.
func freshInstances() (buckets, shares *cache.Instances) {
	b := make([]cache.Instance, len(ageBucketNames))
	for i, name := range ageBucketNames {
		b[i] = cache.Instance{ID: uint32(i), Name: name}
	}
	s := make([]cache.Instance, len(agePercentiles))
	for i, p := range agePercentiles {
		s[i] = cache.Instance{ID: uint32(i), Name: p.name}
	}
	return cache.NewInstances(b), cache.NewInstances(s)
}

// freshMetrics computes the freshness self-metrics when read.
func (r *Runner) freshMetrics(computed func(cache.Desc, func(*cache.Request, []cache.Value) []cache.Value) cache.Desc,
	perEntry func(cache.Desc, func(*entry) (int64, bool)) cache.Desc) []cache.Desc {
	ms := func(ns int64) int32 { return int32(time.Duration(ns).Milliseconds()) }
	return []cache.Desc{
		computed(ctlFreshWithin, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			return append(dst, cache.I32Value(cache.InstNone, ms(r.fresh.withinNS.Load())))
		}),
		computed(ctlFetchWait, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			return append(dst, cache.I32Value(cache.InstNone, ms(r.fresh.waitNS.Load())))
		}),
		computed(ctlFreshMisses, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			return append(dst, cache.U64Value(cache.InstNone, r.fresh.misses.Load()))
		}),
		computed(ctlFreshSampled, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			return append(dst, cache.U64Value(cache.InstNone, r.fresh.sampled.Load()))
		}),
		computed(ctlFreshAges, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			for i := range r.fresh.ages.buckets {
				dst = append(dst, cache.U64Value(uint32(i), r.fresh.ages.buckets[i].Load()))
			}
			return dst
		}),
		computed(ctlFreshAge, func(_ *cache.Request, dst []cache.Value) []cache.Value {
			r.fresh.ages.percentiles(func(i int, us int64) {
				dst = append(dst, cache.U64Value(uint32(i), uint64(us)))
			})
			return dst
		}),
		perEntry(ctlFetchSamples, func(e *entry) (int64, bool) { return int64(e.fresh.taken.Load()), true }),
		perEntry(ctlFetchMisses, func(e *entry) (int64, bool) { return int64(e.fresh.misses.Load()), true }),
	}
}
