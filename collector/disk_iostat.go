package collector

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Units of the iostat figures, as PCP's iostat.conf declares them.
var (
	iostatUnitsAwait = cache.MakeUnits(0, 1, -1, 0, cache.TimeMSec, 0)
	iostatUnitsSize  = cache.MakeUnits(1, 0, -1, cache.SpaceKByte, 0, 0)
)

// iostatFigure is one of the derived metrics of /etc/pcp/derived/iostat.conf,
// computed at read time from the counter deltas over the asking client's
// interval, with the conf's name below disk.dev, disk.dm, disk.md and disk.wwid. They
// are instant values with no rate twin; util also has peaks.
type iostatFigure struct {
	dev, dm, md     string // the full names below disk.dev, disk.dm and disk.md
	wwid            string // and below disk.wwid (its items are devItem, in clusterWWID)
	devItem, dmItem uint32 // items in clusterDisk and clusterDM (and clusterMD), clear of pmdalinux's
	units           cache.Units
	value           func(d *diskDeltas) (float64, bool)
	peaks           bool
}

var iostatFigures = []iostatFigure{
	// await = delta(total_rawactive) / delta(total), and so on: the mean
	// milliseconds a completed request spent queued and in service.
	{"hostcache.disk.dev.await", "hostcache.disk.dm.await", "hostcache.disk.md.await", "hostcache.disk.wwid.await",
		110, 40, iostatUnitsAwait, iostatPerRequest([]int{dfTotalRaw}, []int{dfTotal}), false},
	{"hostcache.disk.dev.r_await", "hostcache.disk.dm.r_await", "hostcache.disk.md.r_await",
		"hostcache.disk.wwid.r_await", 111, 41, iostatUnitsAwait,
		iostatPerRequest([]int{dfReadRaw}, []int{dfRead}), false},
	{"hostcache.disk.dev.w_await", "hostcache.disk.dm.w_await", "hostcache.disk.md.w_await",
		"hostcache.disk.wwid.w_await", 112, 42, iostatUnitsAwait,
		iostatPerRequest([]int{dfWriteRaw}, []int{dfWrite}), false},
	{"hostcache.disk.dev.d_await", "hostcache.disk.dm.d_await", "hostcache.disk.md.d_await",
		"hostcache.disk.wwid.d_await", 113, 43, iostatUnitsAwait,
		iostatPerRequest([]int{dfDiscardRaw}, []int{dfDiscard}), false},
	{"hostcache.disk.dev.f_await", "hostcache.disk.dm.f_await", "hostcache.disk.md.f_await",
		"hostcache.disk.wwid.f_await", 114, 44, iostatUnitsAwait,
		iostatPerRequest([]int{dfFlushRaw}, []int{dfFlush}), false},
	// avg_qlen = rate(read_rawactive) + rate(write_rawactive): PCP's rate()
	// of a millisecond counter is in seconds per second.
	{"hostcache.disk.dev.avg_qlen", "hostcache.disk.dm.avg_qlen", "hostcache.disk.md.avg_qlen",
		"hostcache.disk.wwid.avg_qlen", 115, 45, cache.UnitsNone, iostatBusy(1, dfReadRaw, dfWriteRaw), false},
	// avg_rqsz = (delta(read_bytes) + delta(write_bytes)) / (delta(read) +
	// delta(write)), in Kbyte per request; the conf's rescale to Kbyte is a
	// no-op, the byte counters being in Kbyte already.
	{"hostcache.disk.dev.avg_rqsz", "hostcache.disk.dm.avg_rqsz", "hostcache.disk.md.avg_rqsz",
		"hostcache.disk.wwid.avg_rqsz", 116, 46, iostatUnitsSize,
		iostatPerRequest([]int{dfReadBytes, dfWriteBytes}, []int{dfRead, dfWrite}), false},
	{"hostcache.disk.dev.r_avg_rqsz", "hostcache.disk.dm.r_avg_rqsz", "hostcache.disk.md.r_avg_rqsz",
		"hostcache.disk.wwid.r_avg_rqsz", 117, 47, iostatUnitsSize,
		iostatPerRequest([]int{dfReadBytes}, []int{dfRead}), false},
	{"hostcache.disk.dev.w_avg_rqsz", "hostcache.disk.dm.w_avg_rqsz", "hostcache.disk.md.w_avg_rqsz",
		"hostcache.disk.wwid.w_avg_rqsz", 118, 48, iostatUnitsSize,
		iostatPerRequest([]int{dfWriteBytes}, []int{dfWrite}), false},
	{"hostcache.disk.dev.d_avg_rqsz", "hostcache.disk.dm.d_avg_rqsz", "hostcache.disk.md.d_avg_rqsz",
		"hostcache.disk.wwid.d_avg_rqsz", 119, 49, iostatUnitsSize,
		iostatPerRequest([]int{dfDiscardBytes}, []int{dfDiscard}), false},
	// util = 100 * rate(avactive): the percentage of the interval during
	// which the device had at least one request in progress.
	{"hostcache.disk.dev.util", "hostcache.disk.dm.util", "hostcache.disk.md.util", "hostcache.disk.wwid.util", 120,
		50, cache.UnitsNone, iostatBusy(100, dfAvactive), true},
}

// diskDeltas gives one instance's counter growth over a client's window.
type diskDeltas struct {
	w     *engine.Window
	descs []cache.Desc // the tree's descriptors, in diskFields order
	inst  uint32
}

// sum adds the deltas of fields, false if any has none (not published at
// both ends of any step, or gone backwards in every step), with the
// seconds the first field's delta covers.
func (d *diskDeltas) sum(fields []int) (uint64, float64, bool) {
	var total uint64
	var secs float64
	for i, f := range fields {
		v, s, ok := d.w.DeltaSeconds(d.descs[f].ID, d.inst)
		if !ok {
			return 0, 0, false
		}
		if i == 0 {
			secs = s
		}
		total += v
	}
	return total, secs, true
}

// perRequest divides the growth of num by that of den. As in iostat.conf,
// an interval in which no request completed (den grew by 0) gives 0, not
// no value; one without a delta for den gives no value.
func iostatPerRequest(num, den []int) func(d *diskDeltas) (float64, bool) {
	return func(d *diskDeltas) (float64, bool) {
		q, _, ok := d.sum(den)
		if !ok {
			return 0, false
		}
		if q == 0 {
			return 0, true
		}
		n, _, ok := d.sum(num)
		if !ok {
			return 0, false
		}
		return float64(n) / float64(q), true
	}
}

// busy is scale times the summed rates of millisecond counters, in seconds
// per second as PCP's rate() gives time counters.
func iostatBusy(scale float64, fields ...int) func(d *diskDeltas) (float64, bool) {
	return func(d *diskDeltas) (float64, bool) {
		ms, secs, ok := d.sum(fields)
		if !ok || secs <= 0 {
			return 0, false
		}
		return scale * float64(ms) / 1000 / secs, true
	}
}

// iostatDescs builds the figure descriptors of tree t (diskDev, diskDM or
// diskMD).
func iostatDescs(t diskTree) []cache.Desc {
	out := make([]cache.Desc, len(iostatFigures))
	for i, f := range iostatFigures {
		name, cluster, item, indom := f.dev, uint32(clusterDisk), f.devItem, indomDisk
		switch t {
		case diskDM:
			name, cluster, item, indom = f.dm, clusterDM, f.dmItem, indomDM
		case diskMD:
			name, cluster, item, indom = f.md, clusterMD, f.dmItem, indomMD
		case diskWWID:
			name, cluster, item, indom = f.wwid, clusterWWID, f.devItem, indomWWID
		}
		out[i] = engine.Row{Name: name, Cluster: cluster, Item: item, Type: cache.TypeDouble,
			Sem: cache.SemInstant, Units: f.units, InDom: indom}.Desc()
	}
	return out
}

// iostatDerived declares the figures of one tree (descs from iostatDescs)
// over its counters (counters in diskFields order). Their instances are
// the tree's at the window's end.
func iostatDerived(descs, counters []cache.Desc) []engine.Derived {
	out := make([]engine.Derived, len(iostatFigures))
	for i := range iostatFigures {
		f := &iostatFigures[i]
		// One scratch per figure: the engine computes figures one at a
		// time, so reusing it keeps a fetch free of allocations.
		d := &diskDeltas{descs: counters}
		out[i] = engine.Derived{Desc: descs[i], Like: counters[dfTotal].ID, Peaks: f.peaks,
			Value: func(w *engine.Window, inst uint32) (float64, bool) {
				d.w, d.inst = w, inst
				return f.value(d)
			}}
	}
	return out
}

// Bounds declares avactive's physical limit, which keeps util within 100
// (and the slack): a device is busy for at most a second each second,
// disk.all's sum for hinv.ndisk devices' seconds. disk.wwid sums the paths
// of a multipath device, each busy on its own, and has no bound.
func (c *diskCollector) Bounds() []engine.Bounded {
	busy := engine.Bound{PerSecond: 1000, Slack: timeSlack}
	out := []engine.Bounded{engine.WithBound(c.descs[diskAll][dfAvactive],
		engine.Bound{PerSecond: 1000, Units: &diskCount, Slack: timeSlack})}
	for _, t := range []diskTree{diskDev, diskPart, diskDM, diskMD, diskZram} {
		out = append(out, engine.WithBound(c.descs[t][dfAvactive], busy))
	}
	return out
}
