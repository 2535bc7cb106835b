package engine

import (
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// RateItemOffset is added to a counter's item to give its rate's item, so
// every hostcache.rate.X sits in X's cluster at a predictable place.
const RateItemOffset = 512

// Prefix is the root of every metric name.
const Prefix = "hostcache."

// Metric describes a metric. name is the full PMNS name, written out where
// the metric is declared so that a search for it finds the declaration;
// tools/genmetrics indexes every metric by that literal.
func Metric(name string, cluster, item uint32, t cache.Type, sem cache.Sem, u cache.Units, indom cache.InDomID) cache.Desc {
	if !strings.HasPrefix(name, Prefix) {
		panic("metric name " + name + " is not below " + Prefix)
	}
	return cache.Desc{
		Name: name, ID: cache.NewMetricID(cluster, item),
		Type: t, Sem: sem, Units: u, InDom: indom,
	}
}

// RateID is the id of the rate twin of counter id.
func RateID(id cache.MetricID) cache.MetricID {
	return cache.NewMetricID(id.Cluster(), id.Item()+RateItemOffset)
}

// WithPeaks marks an instant metric for hostcache.max.X and hostcache.min.X
// twins: its highest and lowest sample inside each client's interval.
func WithPeaks(d cache.Desc) cache.Desc {
	d.Peaks = true
	return d
}

// Bound is the most a counter can physically grow per second of a
// sampling step: a CPU's time grows by at most a second each second, and
// a disk is busy for at most a second each second. A step that grows more
// read something absurd (a field of 2^64-1, a sum that took one in): it
// is a reset, as a counter that went backwards is, left out of the
// instance's figures and counted in hostcache.control.collector.resets.
//
// A step of s seconds may grow by at most PerSecond * n * (s + Slack),
// where n is how many units the counter covers at the step (one unless
// Units or UnitsOf says otherwise). A step whose n is 0 is not checked:
// nothing says how many units there are.
type Bound struct {
	// PerSecond is the most one unit grows per second, in the counter's
	// own units: 1000 for milliseconds of CPU or disk time.
	PerSecond float64
	// Units, when set, is a whole-number metric of the same source,
	// without instances, that counts the units at a sample (hinv.ncpu for
	// the time of all CPUs). The larger of its values at the step's two
	// ends is n: a CPU that went offline inside the step still ran in it.
	Units *cache.Desc
	// UnitsOf, when set instead, gives n for an instance, fixed for the
	// agent's life (the CPUs of a NUMA node).
	UnitsOf func(inst uint32) uint64
	// Slack is added to each step's duration: the jitter of the source's
	// own accounting, which a real kernel's counters show over short steps.
	Slack time.Duration
}

// Bounded gives a counter its Bound.
type Bounded struct {
	Counter cache.MetricID
	Bound   Bound
}

// WithBound declares counter d's Bound, for a collector's Bounds.
func WithBound(d cache.Desc, b Bound) Bounded {
	return Bounded{Counter: d.ID, Bound: b}
}
