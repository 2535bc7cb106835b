package proc

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The hot metrics of their own: pmdaproc's hotproc.nprocs, controls,
// totals and predicate figures. The per-process ones are twins of
// proc.*'s (hot_table.go).

var hotNprocs = engine.Row{Name: "hostcache.hotproc.nprocs", Cluster: 152, Item: 99,
	Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()

// The controls, by item.
var (
	hotRefreshCtl = hotRow("hostcache.hotproc.control.refresh", clusterHotControl, 1, cache.TypeU32, cache.UnitsNone)
	hotConfigCtl  = hotRow("hostcache.hotproc.control.config", clusterHotControl, 8, cache.TypeString, cache.UnitsNone)
	hotGenCtl     = hotRow("hostcache.hotproc.control.config_gen", clusterHotControl, 9, cache.TypeU32, cache.UnitsNone)
	hotReloadCtl  = hotRow("hostcache.hotproc.control.reload_config", clusterHotControl, 10, cache.TypeU32,
		cache.UnitsNone)
)

// hotTotalRows are hotproc.total.*, in CPUs: seconds per second.
var hotTotalRows = [...]cache.Desc{
	hotRow("hostcache.hotproc.total.cpuidle", clusterHotControl, 2, cache.TypeFloat, cache.UnitsNone),
	hotRow("hostcache.hotproc.total.cpuburn", clusterHotControl, 3, cache.TypeFloat, cache.UnitsNone),
	hotRow("hostcache.hotproc.total.cpuother.transient", clusterHotControl, 4, cache.TypeFloat, cache.UnitsNone),
	hotRow("hostcache.hotproc.total.cpuother.not_cpuburn", clusterHotControl, 5, cache.TypeFloat, cache.UnitsNone),
	hotRow("hostcache.hotproc.total.cpuother.total", clusterHotControl, 6, cache.TypeFloat, cache.UnitsNone),
	hotRow("hostcache.hotproc.total.cpuother.percent", clusterHotControl, 7, cache.TypeFloat, cache.UnitsNone),
}

var kbPerSec = cache.MakeUnits(1, -1, 0, cache.SpaceKByte, cache.TimeSec, 0)

// hotPredRows are hotproc.predicate.*, by item.
var hotPredRows = [...]cache.Desc{
	hotPredRow("hostcache.hotproc.predicate.ctxswitch", 1, cache.TypeFloat, cache.UnitsCountPerSec),
	hotPredRow("hostcache.hotproc.predicate.virtualsize", 2, cache.TypeU32, cache.UnitsKByte),
	hotPredRow("hostcache.hotproc.predicate.residentsize", 3, cache.TypeU32, cache.UnitsKByte),
	hotPredRow("hostcache.hotproc.predicate.iodemand", 4, cache.TypeFloat, kbPerSec),
	hotPredRow("hostcache.hotproc.predicate.iowait", 5, cache.TypeFloat, cache.UnitsNone),
	hotPredRow("hostcache.hotproc.predicate.schedwait", 6, cache.TypeFloat, cache.UnitsNone),
	hotPredRow("hostcache.hotproc.predicate.cpuburn", 7, cache.TypeFloat, cache.UnitsNone),
}

func hotRow(name string, cluster, item uint32, t cache.Type, u cache.Units) cache.Desc {
	return engine.Row{Name: name, Cluster: cluster, Item: item, Type: t, Sem: cache.SemInstant, Units: u,
		InDom: cache.InDomNone}.Desc()
}

func hotPredRow(name string, item uint32, t cache.Type, u cache.Units) cache.Desc {
	d := engine.Row{Name: name, Cluster: clusterHotPred, Item: item, Type: t, Sem: cache.SemInstant, Units: u,
		InDom: indomHot}.Desc()
	d.Access = known
	return d
}

// hotOwnMetrics are the hot metrics the process collector sets itself.
func hotOwnMetrics() []cache.Desc {
	out := []cache.Desc{hotNprocs, hotRefreshCtl, hotConfigCtl, hotGenCtl, hotReloadCtl}
	out = append(out, hotTotalRows[:]...)
	return append(out, hotPredRows[:]...)
}

// setPreds sets a hot process's predicate figures.
func setPreds(b *cache.Builder, pid int32, p hotPreds) {
	inst := uint32(pid)
	for i, v := range [...]float64{p.ctxswitch, float64(p.vsizeKB), float64(p.rssKB), p.iodemand, p.iowait,
		p.schedwait, p.cpuburn} {
		if d := hotPredRows[i]; d.Type == cache.TypeU32 {
			b.SetU64(d.ID, inst, uint64(v))
		} else {
			b.SetDouble(d.ID, inst, v)
		}
	}
}

// setHotGlobals sets the controls and the totals.
func setHotGlobals(b *cache.Builder, s hotSettings, t hotTotals) {
	b.SetU64(hotRefreshCtl.ID, cache.InstNone, uint64(s.refresh))
	b.SetString(hotConfigCtl.ID, cache.InstNone, s.text)
	b.SetU64(hotGenCtl.ID, cache.InstNone, uint64(s.gen))
	b.SetU64(hotReloadCtl.ID, cache.InstNone, 0)
	other := t.transient + t.inactive
	percent := 0.0
	if t.valid && other+t.active != 0 {
		percent = other / (other + t.active) * 100
	}
	for i, v := range [...]float64{t.idle, t.active, t.transient, t.inactive, other, percent} {
		b.SetDouble(hotTotalRows[i].ID, cache.InstNone, v)
	}
}

// hotDue reports whether a sample at now evaluates the predicate: the
// first one at least refresh seconds after the last evaluation, with half
// a second's slack so that a refresh equal to the sampling interval
// evaluates at every sample.
func hotDue(last, now time.Time, refresh uint32) bool {
	return last.IsZero() || now.Sub(last) >= time.Duration(refresh)*time.Second-time.Second/2
}
