package mmvfiles

import (
	"sync/atomic"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The MMV catalog's own metrics, below hostcache.mmv.control as pmdammv
// has mmv.control.*. They are there whatever the directory holds, so
// each dynamic root always has a name below it: pmcd 6.0.3 lists a
// dynamic node that has none as if it were a metric, and every client
// walking the namespace (pminfo, Install's check) then fails to look it
// up. files and metrics ask for peaks (hostcache.max.mmv.control.*,
// min.mmv.control.*); changes is a counter, so it has its rate and the
// rate's peaks (hostcache.rate.mmv.control.changes, max.rate.mmv...,
// min.rate.mmv...).
var (
	// files has pmdammv's mmv.control.files descriptor: its twin.
	mmvControlFiles = engine.Row{Name: "hostcache.mmv.control.files", Cluster: clusterMMVControl, Item: 0,
		Type: cache.TypeI32, Sem: cache.SemInstant, InDom: cache.InDomNone, Peaks: true}.Desc()
	mmvControlMetrics = engine.Row{Name: "hostcache.mmv.control.metrics", Cluster: clusterMMVControl, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone,
		Peaks: true}.Desc()
	mmvControlChanges = engine.Row{Name: "hostcache.mmv.control.changes", Cluster: clusterMMVControl, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
)

// mmvControlName is the name no MMV file may have: its metrics would be
// named as the control metrics are.
const mmvControlName = "control"

// mmvControlDescs are the control metrics' descriptors.
func mmvControlDescs() []cache.Desc {
	return []cache.Desc{mmvControlFiles, mmvControlMetrics, mmvControlChanges}
}

// mmvControlHelp is the control metrics' help: its one line, then the
// rest. It is served as the MMV files' help is, not from the help files:
// Install's newhelp takes every name below a dynamic root for the root
// itself (396.*.*) and complains of duplicates.
var mmvControlHelp = map[string][2]string{
	mmvControlFiles.Name: {"MMV files whose metrics the agent serves",
		"How many MMV files of the MMV directory (mmv_dir) have their metrics\n" +
			"served below hostcache.mmv, as pmdammv's mmv.control.files counts its.\n" +
			"The hostcache.mmv.control names are there with no file at all, so\n" +
			"every dynamic root of the MMV metrics has names below it."},
	mmvControlMetrics.Name: {"metrics of the MMV files the agent serves",
		"How many metrics the MMV files give below hostcache.mmv, the control\n" +
			"metrics left out."},
	mmvControlChanges.Name: {"changes of the MMV metrics",
		"How many times the MMV files' metrics changed since the agent started:\n" +
			"a file came, went, or was parsed again with other metrics. Each change\n" +
			"tells every pmcd client that the names changed. Changes are paced: 2 s\n" +
			"apart, up to 64 s while they come fast."},
}

// mmvControlText is the help of a control metric.
func mmvControlText(name string, long bool) (string, bool) {
	h, ok := mmvControlHelp[name]
	if !ok {
		return "", false
	}
	if long {
		return h[1], true
	}
	return h[0], true
}

// mmvControl counts what the control metrics report.
type mmvControl struct {
	changes atomic.Uint64
}

// publish sets the control metrics of view v.
func (c *mmvControl) publish(b *cache.Builder, v *mmvView) {
	b.SetI64(mmvControlFiles.ID, cache.InstNone, int64(len(v.parts)))
	b.SetU64(mmvControlMetrics.ID, cache.InstNone, uint64(len(v.descs)))
	b.SetU64(mmvControlChanges.ID, cache.InstNone, c.changes.Load())
}
