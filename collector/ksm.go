package collector

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
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
	{engine.Metric("hostcache.mem.ksm.full_scans", clusterKSM, 0, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), "full_scans"},
	{engine.Metric("hostcache.mem.ksm.merge_across_nodes", clusterKSM, 1, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "merge_across_nodes"},
	{engine.Metric("hostcache.mem.ksm.pages_shared", clusterKSM, 2, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "pages_shared"},
	{engine.Metric("hostcache.mem.ksm.pages_sharing", clusterKSM, 3, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "pages_sharing"},
	{engine.Metric("hostcache.mem.ksm.pages_to_scan", clusterKSM, 4, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "pages_to_scan"},
	{engine.Metric("hostcache.mem.ksm.pages_unshared", clusterKSM, 5, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone), "pages_unshared"},
	{engine.Metric("hostcache.mem.ksm.pages_volatile", clusterKSM, 6, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "pages_volatile"},
	{engine.Metric("hostcache.mem.ksm.run_state", clusterKSM, 7, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone), "run"},
	{engine.Metric("hostcache.mem.ksm.sleep_time", clusterKSM, 8, cache.TypeU64, cache.SemInstant, cache.UnitsMSec, cache.InDomNone), "sleep_millisecs"},
}

// ksmCollector reads the attributes, one small file each.
type ksmCollector struct {
	files []*kernel.File // as ksmAttrs
	buf   []byte
}

// NewKSMCollector names the attributes below env.Sys.
func NewKSMCollector(env engine.Env) (engine.Collector, error) {
	if err := checkDir(env.Sys); err != nil {
		return nil, fmt.Errorf("ksm: sys root: %w", err)
	}
	c := &ksmCollector{}
	for _, a := range ksmAttrs {
		c.files = append(c.files, kernel.NewFileKept(env.Sys, filepath.Join(env.Sys, "kernel", "mm", "ksm", a.file), env.KeepFiles))
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
