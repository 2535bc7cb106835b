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
	tapeInFlight = engine.Row{Name: "hostcache.tape.dev.in_flight", Cluster: clusterTape, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomTape}.Desc()
	tapeIONs = engine.Row{Name: "hostcache.tape.dev.io_ns", Cluster: clusterTape, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: unitsNSec, InDom: indomTape}.Desc()
	tapeOtherCnt = engine.Row{Name: "hostcache.tape.dev.other_cnt", Cluster: clusterTape, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomTape}.Desc()
	tapeReadByteCnt = engine.Row{Name: "hostcache.tape.dev.read_byte_cnt", Cluster: clusterTape, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomTape}.Desc()
	tapeReadCnt = engine.Row{Name: "hostcache.tape.dev.read_cnt", Cluster: clusterTape, Item: 4,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomTape}.Desc()
	tapeReadNs = engine.Row{Name: "hostcache.tape.dev.read_ns", Cluster: clusterTape, Item: 5,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: unitsNSec, InDom: indomTape}.Desc()
	tapeResidCnt = engine.Row{Name: "hostcache.tape.dev.resid_cnt", Cluster: clusterTape, Item: 6,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomTape}.Desc()
	tapeWriteByteCnt = engine.Row{Name: "hostcache.tape.dev.write_byte_cnt", Cluster: clusterTape, Item: 7,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomTape}.Desc()
	tapeWriteCnt = engine.Row{Name: "hostcache.tape.dev.write_cnt", Cluster: clusterTape, Item: 8,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomTape}.Desc()
	tapeWriteNs = engine.Row{Name: "hostcache.tape.dev.write_ns", Cluster: clusterTape, Item: 9,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: unitsNSec, InDom: indomTape}.Desc()
	hinvNTape = engine.Row{Name: "hostcache.hinv.ntape", Cluster: clusterTape, Item: 16,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
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
