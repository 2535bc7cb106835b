package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fibre channel host adapters, from /sys/class/fc_host/hostN/statistics,
// with pmdalinux's items (its cluster 91). The kernel counts data in
// 4-byte words; pmdalinux, and we, give bytes.
var (
	fcInFrames = engine.Row{Name: "hostcache.fchost.in.frames", Cluster: clusterFCHost, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	fcOutFrames = engine.Row{Name: "hostcache.fchost.out.frames", Cluster: clusterFCHost, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	fcInBytes = engine.Row{Name: "hostcache.fchost.in.bytes", Cluster: clusterFCHost, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomFCHost}.Desc()
	fcOutBytes = engine.Row{Name: "hostcache.fchost.out.bytes", Cluster: clusterFCHost, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomFCHost}.Desc()
	fcLIPCount = engine.Row{Name: "hostcache.fchost.lip_count", Cluster: clusterFCHost, Item: 4,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	fcNOSCount = engine.Row{Name: "hostcache.fchost.nos_count", Cluster: clusterFCHost, Item: 5,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	fcErrorFrames = engine.Row{Name: "hostcache.fchost.error_frames", Cluster: clusterFCHost, Item: 6,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	fcDumpedFrames = engine.Row{Name: "hostcache.fchost.dumped_frames", Cluster: clusterFCHost, Item: 7,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomFCHost}.Desc()
	hinvNFCHost = engine.Row{Name: "hostcache.hinv.nfchost", Cluster: clusterFCHost, Item: 16,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// NewFCHostCollector reads the adapters below env.Sys.
func NewFCHostCollector(env engine.Env) (engine.Collector, error) {
	return newClassCollector(env, classSpec{
		name: "fchost", class: "fc_host", stats: "statistics",
		counters: []classStat{
			{"rx_frames", fcInFrames, 0}, {"tx_frames", fcOutFrames, 0},
			{"rx_words", fcInBytes, 2}, {"tx_words", fcOutBytes, 2},
			{"lip_count", fcLIPCount, 0}, {"nos_count", fcNOSCount, 0},
			{"error_frames", fcErrorFrames, 0}, {"dumped_frames", fcDumpedFrames, 0},
		},
		count: hinvNFCHost, allOnesZero: true,
		indom: cache.InDomDesc{ID: indomFCHost, Name: "fchost"},
	})
}
