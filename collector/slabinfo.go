package collector

import (
	"fmt"
	"os"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The kernel's slab caches, from /proc/slabinfo, with pmdalinux's items
// (its cluster 20): how much memory each kind of kernel object holds, the
// place to look when Slab in /proc/meminfo grows. One instance per cache,
// named as pmdalinux names it.
var (
	slabObjectsActive = engine.Row{Name: "hostcache.mem.slabinfo.objects.active", Cluster: clusterSlab, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabObjectsTotal = engine.Row{Name: "hostcache.mem.slabinfo.objects.total", Cluster: clusterSlab, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabObjectSize = engine.Row{Name: "hostcache.mem.slabinfo.objects.size", Cluster: clusterSlab, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: indomSlab}.Desc()
	slabSlabsActive = engine.Row{Name: "hostcache.mem.slabinfo.slabs.active", Cluster: clusterSlab, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabSlabsTotal = engine.Row{Name: "hostcache.mem.slabinfo.slabs.total", Cluster: clusterSlab, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabPagesPerSlab = engine.Row{Name: "hostcache.mem.slabinfo.slabs.pages_per_slab", Cluster: clusterSlab,
		Item: 5, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabObjsPerSlab = engine.Row{Name: "hostcache.mem.slabinfo.slabs.objects_per_slab", Cluster: clusterSlab,
		Item: 6, Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomSlab}.Desc()
	slabTotalSize = engine.Row{Name: "hostcache.mem.slabinfo.slabs.total_size", Cluster: clusterSlab,
		Item: 7, Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: indomSlab}.Desc()
)

// slabinfoCollector reads /proc/slabinfo. The file is readable by root
// only: the factory opens it while the agent still runs as root, and the
// kept descriptor goes on reading it after the agent drops to its user
// (procfs checks the permission at open, not at read).
type slabinfoCollector struct {
	file     *kernel.File
	table    named
	pageSize uint64
	buf      []byte
	rows     []slabRow
}

// NewSlabinfoCollector names /proc/slabinfo below env.Proc and opens it
// at once, so a root-only file is opened before privileges are dropped.
func NewSlabinfoCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "slabinfo")
	if err != nil {
		return nil, fmt.Errorf("slabinfo: %w", err)
	}
	c := &slabinfoCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles),
		table: named{ids: env.IDMap(indomSlab)}, pageSize: uint64(os.Getpagesize())}
	// A file that cannot be read now fails each sample instead.
	c.buf, _ = c.file.Read(c.buf)
	return c, nil
}

func (c *slabinfoCollector) Name() string { return "slabinfo" }

func (c *slabinfoCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{slabObjectsActive, slabObjectsTotal, slabObjectSize,
		slabSlabsActive, slabSlabsTotal, slabPagesPerSlab, slabObjsPerSlab, slabTotalSize},
		InDoms: []cache.InDomDesc{{ID: indomSlab, Name: "slab caches",
			Labels: hostkit.IndomLabels(`"memory"`, "per slab")}}}
}

// Sample reads the file once.
func (c *slabinfoCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	var bad int
	c.rows, bad, err = parseSlabinfo(c.buf, c.rows)
	if err != nil {
		return fmt.Errorf("%s: %w", c.file.Path, err)
	}
	if len(c.rows) == 0 {
		return fmt.Errorf("%s: no cache read (%d lines malformed)", c.file.Path, bad)
	}
	b.SetInDom(indomSlab, c.table.update(len(c.rows), func(i int) string { return c.rows[i].name }))
	for i, r := range c.rows {
		c.set(b, c.table.insts[i], r)
	}
	return nil
}

// set publishes one cache's figures. The memory its objects hold is
// pmdalinux's: the pages of the slabs the active objects would fill.
func (c *slabinfoCollector) set(b *cache.Builder, id uint32, r slabRow) {
	b.SetU64(slabObjectsActive.ID, id, r.activeObjs)
	b.SetU64(slabObjectsTotal.ID, id, r.totalObjs)
	b.SetU64(slabObjectSize.ID, id, r.objSize)
	b.SetU64(slabSlabsActive.ID, id, r.activeSlabs)
	b.SetU64(slabSlabsTotal.ID, id, r.totalSlabs)
	b.SetU64(slabPagesPerSlab.ID, id, r.pagesPerSlab)
	b.SetU64(slabObjsPerSlab.ID, id, r.objsPerSlab)
	// pmdalinux divides by zero here; a cache without objects per slab
	// has no size instead.
	if r.objsPerSlab > 0 {
		b.SetU64(slabTotalSize.ID, id, r.pagesPerSlab*r.activeObjs*c.pageSize/r.objsPerSlab)
	}
}
