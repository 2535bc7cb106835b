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
	ctlFetchAnswer = Row{Name: "hostcache.control.fetch.answer", Cluster: clusterControl, Item: 38,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: unitsUSec, InDom: indomAgeShares}.Desc()
	ctlFetchAnswers = Row{Name: "hostcache.control.fetch.answers", Cluster: clusterControl, Item: 39,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomAgeBuckets}.Desc()
	ctlFetchAnswerTime = Row{Name: "hostcache.control.fetch.answer_time", Cluster: clusterControl, Item: 40,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: unitsUSec, InDom: cache.InDomNone}.Desc()
)

// freshInDoms are the freshness metrics' instance domains.
func freshInDoms() []cache.InDomDesc {
	named := func(indomName string) []cache.Label {
		return []cache.Label{cache.StringLabel("indom_name", indomName)}
	}
	return []cache.InDomDesc{
		{ID: indomAgeBuckets, Name: "fetch duration buckets", Labels: named("per duration bucket")},
		{ID: indomAgeShares, Name: "fetch duration percentiles", Labels: named("per percentile")},
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
		computed(ctlFreshAges, r.fresh.ages.appendBuckets),
		computed(ctlFreshAge, r.fresh.ages.appendPercentiles),
		computed(ctlFetchAnswers, r.fresh.answers.appendBuckets),
		computed(ctlFetchAnswer, r.fresh.answers.appendPercentiles),
		computed(ctlFetchAnswerTime, r.fresh.answers.appendTotal),
		perEntry(ctlFetchSamples, func(e *entry) (int64, bool) { return int64(e.fresh.taken.Load()), true }),
		perEntry(ctlFetchMisses, func(e *entry) (int64, bool) { return int64(e.fresh.misses.Load()), true }),
	}
}
