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

// The kernel's uevent sequence number, /sys/kernel/uevent_seqnum, with
// pmdalinux's item (its cluster 35): it counts the device events the
// kernel sent udev, so a rate shows hot-plug or driver churn.
var sysfsUeventSeqnum = engine.Row{Name: "hostcache.sysfs.kernel.uevent_seqnum", Cluster: clusterAgent,
	Item: 0, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()

// sysfsCollector reads the one attribute.
type sysfsCollector struct {
	seqnum *kernel.File
	buf    []byte
}

// NewSysfsCollector names the attribute below env.Sys.
func NewSysfsCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("sysfs: sys root: %w", err)
	}
	path := filepath.Join(env.Sys, "kernel", "uevent_seqnum")
	return &sysfsCollector{seqnum: kernel.NewFileKept(env.Sys, path, env.KeepFiles)}, nil
}

func (c *sysfsCollector) Name() string { return "sysfs" }

func (c *sysfsCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{sysfsUeventSeqnum}}
}

func (c *sysfsCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.seqnum.Read(c.buf); err != nil {
		return err
	}
	line, _ := kernel.AttrLine(c.buf)
	v, ok := kernel.ParseDecimal(line)
	if !ok {
		return fmt.Errorf("%s: not a number: %q", c.seqnum.Path, line)
	}
	b.SetU64(sysfsUeventSeqnum.ID, cache.InstNone, v)
	return nil
}
