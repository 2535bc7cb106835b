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
