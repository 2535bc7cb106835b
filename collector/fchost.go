package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fibre channel host adapters, from /sys/class/fc_host/hostN/statistics,
// with pmdalinux's items (its cluster 91). The kernel counts data in
// 4-byte words; pmdalinux, and we, give bytes.
var (
	fcInFrames     = engine.Metric("hostcache.fchost.in.frames", clusterFCHost, 0, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	fcOutFrames    = engine.Metric("hostcache.fchost.out.frames", clusterFCHost, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	fcInBytes      = engine.Metric("hostcache.fchost.in.bytes", clusterFCHost, 2, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomFCHost)
	fcOutBytes     = engine.Metric("hostcache.fchost.out.bytes", clusterFCHost, 3, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomFCHost)
	fcLIPCount     = engine.Metric("hostcache.fchost.lip_count", clusterFCHost, 4, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	fcNOSCount     = engine.Metric("hostcache.fchost.nos_count", clusterFCHost, 5, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	fcErrorFrames  = engine.Metric("hostcache.fchost.error_frames", clusterFCHost, 6, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	fcDumpedFrames = engine.Metric("hostcache.fchost.dumped_frames", clusterFCHost, 7, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomFCHost)
	hinvNFCHost    = engine.Metric("hostcache.hinv.nfchost", clusterFCHost, 16, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
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
