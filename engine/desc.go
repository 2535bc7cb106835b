package engine

import (
	"strings"

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
func Metric(name string, cluster, item uint32, t cache.Type, sem cache.Sem, u cache.Units,
	indom cache.InDomID) cache.Desc {
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
