package collector

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// SCSI tape drives, from /sys/class/scsi_tape/stN/stats, with pmdalinux's
// items (its cluster 71). Only the stN devices: nst0, st0a, ... are other
// names of the same drive and share its counters.
var (
	tapeInFlight     = engine.Metric("hostcache.tape.dev.in_flight", clusterTape, 0, cache.TypeU64, cache.SemInstant, cache.UnitsCount, indomTape)
	tapeIONs         = engine.Metric("hostcache.tape.dev.io_ns", clusterTape, 1, cache.TypeU64, cache.SemCounter, unitsNSec, indomTape)
	tapeOtherCnt     = engine.Metric("hostcache.tape.dev.other_cnt", clusterTape, 2, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomTape)
	tapeReadByteCnt  = engine.Metric("hostcache.tape.dev.read_byte_cnt", clusterTape, 3, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomTape)
	tapeReadCnt      = engine.Metric("hostcache.tape.dev.read_cnt", clusterTape, 4, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomTape)
	tapeReadNs       = engine.Metric("hostcache.tape.dev.read_ns", clusterTape, 5, cache.TypeU64, cache.SemCounter, unitsNSec, indomTape)
	tapeResidCnt     = engine.Metric("hostcache.tape.dev.resid_cnt", clusterTape, 6, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomTape)
	tapeWriteByteCnt = engine.Metric("hostcache.tape.dev.write_byte_cnt", clusterTape, 7, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomTape)
	tapeWriteCnt     = engine.Metric("hostcache.tape.dev.write_cnt", clusterTape, 8, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomTape)
	tapeWriteNs      = engine.Metric("hostcache.tape.dev.write_ns", clusterTape, 9, cache.TypeU64, cache.SemCounter, unitsNSec, indomTape)
	hinvNTape        = engine.Metric("hostcache.hinv.ntape", clusterTape, 16, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
)

// NewTapeCollector reads the drives below env.Sys.
func NewTapeCollector(env engine.Env) (engine.Collector, error) {
	return newClassCollector(env, classSpec{
		name: "tape", class: "scsi_tape", stats: "stats", keep: isTapeDrive,
		counters: []classStat{
			{"in_flight", tapeInFlight, 0}, {"io_ns", tapeIONs, 0}, {"other_cnt", tapeOtherCnt, 0},
			{"read_byte_cnt", tapeReadByteCnt, 0}, {"read_cnt", tapeReadCnt, 0}, {"read_ns", tapeReadNs, 0},
			{"resid_cnt", tapeResidCnt, 0}, {"write_byte_cnt", tapeWriteByteCnt, 0},
			{"write_cnt", tapeWriteCnt, 0}, {"write_ns", tapeWriteNs, 0},
		},
		count: hinvNTape,
		indom: cache.InDomDesc{ID: indomTape, Name: "tape"},
	})
}

// isTapeDrive keeps "st" and digits, as pmdalinux does: st0, not nst0 or st0a.
func isTapeDrive(dev string) bool {
	digits, ok := strings.CutPrefix(dev, "st")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// unitsNSec is nanoseconds, the unit of the drive's time counters.
var unitsNSec = cache.MakeUnits(0, 1, 0, 0, cache.TimeNSec, 0)
