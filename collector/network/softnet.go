package network

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The network stack's per-CPU receive processing, from
// /proc/net/softnet_stat, with pmdalinux's items (its cluster 57): the
// totals over the CPUs and each CPU's own. Drops and time squeezes are
// where a host loses packets before any socket sees them.
var (
	softnetProcessed = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.processed", Cluster: clusterSoftnet, Item: 0,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.processed", Cluster: clusterSoftnet, Item: 6,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
	softnetDropped = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.dropped", Cluster: clusterSoftnet, Item: 1,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.dropped", Cluster: clusterSoftnet, Item: 7,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
	softnetTimeSqueeze = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.time_squeeze", Cluster: clusterSoftnet, Item: 2,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.time_squeeze", Cluster: clusterSoftnet, Item: 8,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
	softnetCPUCollision = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.cpu_collision", Cluster: clusterSoftnet, Item: 3,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.cpu_collision", Cluster: clusterSoftnet, Item: 9,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
	softnetReceivedRPS = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.received_rps", Cluster: clusterSoftnet, Item: 4,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.received_rps", Cluster: clusterSoftnet, Item: 10,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
	softnetFlowLimit = softnetMetric{
		engine.Row{Name: "hostcache.network.softnet.flow_limit_count", Cluster: clusterSoftnet, Item: 5,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.network.softnet.percpu.flow_limit_count", Cluster: clusterSoftnet, Item: 11,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
			InDom: indomSoftnetCPU}.Desc()}
)

// softnetMetric is a total over the CPUs and its per-CPU twin.
type softnetMetric struct{ all, percpu cache.Desc }

// softnetCollector reads /proc/net/softnet_stat.
type softnetCollector struct {
	file *kernel.File
	buf  []byte
	rows []kernel.SoftnetCPU
	cpus []int
	list *cache.Instances
	memo kernel.Memo // the text of the last sample built
}

// NewSoftnetCollector names the file below env.Proc.
func NewSoftnetCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "net/softnet_stat")
	if err != nil {
		return nil, fmt.Errorf("softnet: %w", err)
	}
	return &softnetCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles)}, nil
}

func (c *softnetCollector) Name() string { return "softnet" }

func (c *softnetCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, m := range []softnetMetric{softnetProcessed, softnetDropped, softnetTimeSqueeze, softnetCPUCollision,
		softnetReceivedRPS, softnetFlowLimit} {
		metrics = append(metrics, m.all, m.percpu)
	}
	return cache.Source{Name: c.Name(), Metrics: metrics, InDoms: []cache.InDomDesc{
		{ID: indomSoftnetCPU, Name: "softnet cpus", Labels: hostkit.IndomLabels(`"cpu"`, "per cpu"),
			IDLabel: "cpu"}}}
}

// Sample reads the file once.
func (c *softnetCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	if c.memo.Same(c.buf) && b.Again() {
		return nil // the same text: the same values as last time
	}
	var bad int
	c.rows, bad = kernel.ParseSoftnet(c.buf, c.rows)
	if len(c.rows) == 0 {
		return fmt.Errorf("%s: no CPU line read (%d malformed)", c.file.Path, bad)
	}
	b.SetInDom(indomSoftnetCPU, c.instances())
	var sum kernel.SoftnetCPU
	for _, r := range c.rows {
		cpu := uint32(r.CPU)
		for _, p := range []struct {
			m softnetMetric
			v uint64
		}{{softnetProcessed, r.Processed}, {softnetDropped, r.Dropped}, {softnetTimeSqueeze, r.TimeSqueeze},
			{softnetCPUCollision, r.CPUCollision}, {softnetReceivedRPS, r.ReceivedRPS},
			{softnetFlowLimit, r.FlowLimits}} {
			b.SetU64(p.m.percpu.ID, cpu, p.v)
		}
		sum.Processed += r.Processed
		sum.Dropped += r.Dropped
		sum.TimeSqueeze += r.TimeSqueeze
		sum.CPUCollision += r.CPUCollision
		sum.ReceivedRPS += r.ReceivedRPS
		sum.FlowLimits += r.FlowLimits
	}
	b.SetU64(softnetProcessed.all.ID, cache.InstNone, sum.Processed)
	b.SetU64(softnetDropped.all.ID, cache.InstNone, sum.Dropped)
	b.SetU64(softnetTimeSqueeze.all.ID, cache.InstNone, sum.TimeSqueeze)
	b.SetU64(softnetCPUCollision.all.ID, cache.InstNone, sum.CPUCollision)
	b.SetU64(softnetReceivedRPS.all.ID, cache.InstNone, sum.ReceivedRPS)
	b.SetU64(softnetFlowLimit.all.ID, cache.InstNone, sum.FlowLimits)
	c.memo.Keep(c.buf)
	return nil
}

// instances is the table of the CPUs listed, rebuilt when they change.
func (c *softnetCollector) instances() *cache.Instances {
	same := c.list != nil && len(c.rows) == len(c.cpus)
	for i := 0; same && i < len(c.rows); i++ {
		same = c.rows[i].CPU == c.cpus[i]
	}
	if same {
		return c.list
	}
	c.cpus = c.cpus[:0]
	for _, r := range c.rows {
		c.cpus = append(c.cpus, r.CPU)
	}
	list := make([]cache.Instance, 0, len(c.cpus))
	for _, cpu := range slices.Compact(slices.Sorted(slices.Values(c.cpus))) {
		list = append(list, cache.Instance{ID: uint32(cpu), Name: "cpu" + strconv.Itoa(cpu)})
	}
	c.list = cache.NewInstances(list)
	return c.list
}
