package collector

import (
	"fmt"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// /proc/uptime metrics, with pmdalinux's items in its uptime cluster.
var (
	uptimeUp = engine.Row{Name: "hostcache.kernel.all.uptime", Cluster: clusterUptime, Item: 0,
		Type: cache.TypeDouble, Sem: cache.SemInstant, Units: cache.UnitsSec, InDom: cache.InDomNone}.Desc()
	uptimeIdle = engine.Row{Name: "hostcache.kernel.all.idletime", Cluster: clusterUptime, Item: 1,
		Type: cache.TypeDouble, Sem: cache.SemInstant, Units: cache.UnitsSec, InDom: cache.InDomNone}.Desc()
)

// uptimeCollector reads /proc/uptime, which procfs has no parser for.
type uptimeCollector struct {
	path string
	file *kernel.File
	buf  []byte
}

// NewUptimeCollector checks the /proc root below env.Proc.
func NewUptimeCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "uptime")
	if err != nil {
		return nil, fmt.Errorf("uptime: %w", err)
	}
	return &uptimeCollector{path: path, file: kernel.NewFileKept(env.Proc, path, env.KeepFiles)}, nil
}

func (c *uptimeCollector) Name() string { return "uptime" }

func (c *uptimeCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{uptimeUp, uptimeIdle}}
}

// Sample reads /proc/uptime once.
func (c *uptimeCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return fmt.Errorf("reading uptime: %w", err)
	}
	up, idle, err := kernel.ParseUptime(c.buf)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", c.path, err)
	}
	b.SetDouble(uptimeUp.ID, cache.InstNone, up)
	b.SetDouble(uptimeIdle.ID, cache.InstNone, idle)
	return nil
}
