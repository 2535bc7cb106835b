package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Kernel same-page merging, from the attributes of /sys/kernel/mm/ksm,
// with pmdalinux's items (its cluster 69); pmdalinux declares every one
// an instant, full_scans included.
var ksmAttrs = []struct {
	desc cache.Desc
	file string
}{
	{engine.Row{Name: "hostcache.mem.ksm.full_scans", Cluster: clusterKSM, Item: 0, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), "full_scans"},
	{engine.Row{Name: "hostcache.mem.ksm.merge_across_nodes", Cluster: clusterKSM, Item: 1, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "merge_across_nodes"},
	{engine.Row{Name: "hostcache.mem.ksm.pages_shared", Cluster: clusterKSM, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "pages_shared"},
	{engine.Row{Name: "hostcache.mem.ksm.pages_sharing", Cluster: clusterKSM, Item: 3, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "pages_sharing"},
	{engine.Row{Name: "hostcache.mem.ksm.pages_to_scan", Cluster: clusterKSM, Item: 4, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "pages_to_scan"},
	{engine.Row{Name: "hostcache.mem.ksm.pages_unshared", Cluster: clusterKSM, Item: 5, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(), "pages_unshared"},
	{engine.Row{Name: "hostcache.mem.ksm.pages_volatile", Cluster: clusterKSM, Item: 6, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "pages_volatile"},
	{engine.Row{Name: "hostcache.mem.ksm.run_state", Cluster: clusterKSM, Item: 7, Type: cache.TypeU64,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), "run"},
	{engine.Row{Name: "hostcache.mem.ksm.sleep_time", Cluster: clusterKSM, Item: 8, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(), "sleep_millisecs"},
}

// ksmCollector reads the attributes, one small file each.
type ksmCollector struct {
	files []*kernel.File // as ksmAttrs
	buf   []byte
}

// NewKSMCollector names the attributes below env.Sys.
func NewKSMCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("ksm: sys root: %w", err)
	}
	c := &ksmCollector{}
	for _, a := range ksmAttrs {
		path := filepath.Join(env.Sys, "kernel", "mm", "ksm", a.file)
		c.files = append(c.files, kernel.NewFileKept(env.Sys, path, env.KeepFiles))
	}
	return c, nil
}

func (c *ksmCollector) Name() string { return "ksm" }

func (c *ksmCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, a := range ksmAttrs {
		metrics = append(metrics, a.desc)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics}
}

// Sample reads each attribute; a kernel built without KSM has none.
func (c *ksmCollector) Sample(b *cache.Builder, _ time.Time) error {
	var errs []error
	for i, f := range c.files {
		var err error
		if c.buf, err = f.Read(c.buf); err != nil {
			errs = append(errs, err)
			continue
		}
		line, _ := kernel.AttrLine(c.buf)
		v, ok := kernel.ParseDecimal(line)
		if !ok {
			errs = append(errs, fmt.Errorf("%s: not a number: %q", f.Path, line))
			continue
		}
		b.SetU64(ksmAttrs[i].desc.ID, cache.InstNone, v)
	}
	return engine.PartialOf(errs, len(c.files))
}
