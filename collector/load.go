package collector

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// /proc/loadavg metrics, with pmdalinux's items in its loadavg cluster. As in
// pmdalinux all four come from this one file; nprocs is the kernel's thread
// count, the "87" of "1/87" (pmdalinux: "total number of processes
// (lightweight)").
var (
	loadAvg = engine.Row{Name: "hostcache.kernel.all.load", Cluster: clusterLoadavg, Item: 0,
		Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomLoadavg, Peaks: true}.Desc()
	loadLastPID = engine.Row{Name: "hostcache.kernel.all.lastpid", Cluster: clusterLoadavg, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	loadRunnable = engine.Row{Name: "hostcache.kernel.all.runnable", Cluster: clusterLoadavg, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	loadNProcs = engine.Row{Name: "hostcache.kernel.all.nprocs", Cluster: clusterLoadavg, Item: 3,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
)

// loadPeriods are pmdalinux's kernel.all.load instance ids, in the order of
// /proc/loadavg: the averaging period in minutes, named "N minute".
var loadPeriods = [3]uint32{1, 5, 15}

func newLoadInstances() *cache.Instances {
	list := make([]cache.Instance, len(loadPeriods))
	for i, m := range loadPeriods {
		list[i] = cache.Instance{ID: m, Name: strconv.FormatUint(uint64(m), 10) + " minute"}
	}
	return cache.NewInstances(list)
}

// loadCollector reads /proc/loadavg itself: procfs's LoadAvg parses only the
// three averages, and two reads could disagree with each other.
type loadCollector struct {
	path  string
	file  *kernel.File
	buf   []byte
	insts *cache.Instances // fixed, so built once
}

// NewLoadCollector checks the /proc root below env.Proc.
func NewLoadCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "loadavg")
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	return &loadCollector{path: path, file: kernel.NewFileKept(env.Proc, path, env.KeepFiles),
		insts: newLoadInstances()}, nil
}

func (c *loadCollector) Name() string { return "load" }

func (c *loadCollector) Source() cache.Source {
	return cache.Source{
		Name:    c.Name(),
		Metrics: []cache.Desc{loadAvg, loadLastPID, loadRunnable, loadNProcs},
		InDoms:  []cache.InDomDesc{{ID: indomLoadavg, Name: "loadavg"}},
	}
}

// Sample reads /proc/loadavg once.
func (c *loadCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return fmt.Errorf("reading loadavg: %w", err)
	}
	la, err := kernel.ParseLoadavg(c.buf)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", c.path, err)
	}
	b.SetInDom(indomLoadavg, c.insts)
	for i, id := range loadPeriods {
		b.SetDouble(loadAvg.ID, id, la.Load[i])
	}
	b.SetU64(loadLastPID.ID, cache.InstNone, la.LastPID)
	b.SetU64(loadRunnable.ID, cache.InstNone, la.Runnable)
	b.SetU64(loadNProcs.ID, cache.InstNone, la.NProcs)
	return nil
}
