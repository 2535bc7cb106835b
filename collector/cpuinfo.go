package collector

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The processors as /proc/cpuinfo describes them, with pmdalinux's items
// of its cpuinfo cluster.
var (
	cpuinfoClock = engine.Row{Name: "hostcache.hinv.cpu.clock", Cluster: clusterCPUInfo, Item: 0,
		Type: cache.TypeFloat, Sem: cache.SemDiscrete, Units: cache.MakeUnits(0, -1, 0, 0, cache.TimeUSec, 0),
		InDom: indomCPUInfo}.Desc()
	cpuinfoVendor = engine.Row{Name: "hostcache.hinv.cpu.vendor", Cluster: clusterCPUInfo, Item: 1,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoModel = engine.Row{Name: "hostcache.hinv.cpu.model", Cluster: clusterCPUInfo, Item: 2,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoStepping = engine.Row{Name: "hostcache.hinv.cpu.stepping", Cluster: clusterCPUInfo, Item: 3,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoCache = engine.Row{Name: "hostcache.hinv.cpu.cache", Cluster: clusterCPUInfo, Item: 4,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsKByte, InDom: indomCPUInfo}.Desc()
	cpuinfoBogomips = engine.Row{Name: "hostcache.hinv.cpu.bogomips", Cluster: clusterCPUInfo, Item: 5,
		Type: cache.TypeFloat, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoModelName = engine.Row{Name: "hostcache.hinv.cpu.model_name", Cluster: clusterCPUInfo, Item: 9,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoFlags = engine.Row{Name: "hostcache.hinv.cpu.flags", Cluster: clusterCPUInfo, Item: 10,
		Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
	cpuinfoAlign = engine.Row{Name: "hostcache.hinv.cpu.cache_alignment", Cluster: clusterCPUInfo, Item: 11,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomCPUInfo}.Desc()
)

// cpuinfoCollector reads /proc/cpuinfo. Reading it makes the kernel ask
// every CPU for its current clock, which takes milliseconds on a large
// host: it is read once a minute.
type cpuinfoCollector struct {
	file *kernel.File
	buf  []byte
	cpus map[int]bool
	list *cache.Instances // kept while the set of CPUs is the same
}

// NewCPUInfoCollector names /proc/cpuinfo below env.Proc.
func NewCPUInfoCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "cpuinfo")
	if err != nil {
		return nil, fmt.Errorf("cpuinfo: %w", err)
	}
	return &cpuinfoCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles)}, nil
}

func (c *cpuinfoCollector) Name() string { return "cpuinfo" }

func (c *cpuinfoCollector) Source() cache.Source {
	return cache.Source{
		Name: c.Name(),
		Metrics: []cache.Desc{cpuinfoClock, cpuinfoVendor, cpuinfoModel, cpuinfoStepping, cpuinfoCache,
			cpuinfoBogomips, cpuinfoModelName, cpuinfoFlags, cpuinfoAlign},
		InDoms: []cache.InDomDesc{{ID: indomCPUInfo, Name: "cpuinfo",
			Labels: hostkit.IndomLabels(`"cpu"`, "per cpu"), IDLabel: "cpu"}},
	}
}

// Sample reads /proc/cpuinfo once.
func (c *cpuinfoCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	seen := map[int]bool{}
	n := kernel.ParseCPUInfo(c.buf, func(cpu int, key, value []byte) {
		seen[cpu] = true
		c.set(b, uint32(cpu), string(key), string(value))
	})
	if n == 0 {
		return fmt.Errorf("%s: no processor listed", c.file.Path)
	}
	b.SetInDom(indomCPUInfo, c.instances(seen))
	return nil
}

// set publishes one cpuinfo line of a CPU, when it is one we export.
func (c *cpuinfoCollector) set(b *cache.Builder, cpu uint32, key, value string) {
	switch key {
	case "cpu MHz":
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			b.SetDouble(cpuinfoClock.ID, cpu, v)
		}
	case "bogomips", "BogoMIPS":
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			b.SetDouble(cpuinfoBogomips.ID, cpu, v)
		}
	case "cache size": // "1024 KB"
		if v, err := strconv.ParseUint(strings.TrimSuffix(value, " KB"), 10, 32); err == nil {
			b.SetU64(cpuinfoCache.ID, cpu, v)
		}
	case "cache_alignment":
		if v, err := strconv.ParseUint(value, 10, 32); err == nil {
			b.SetU64(cpuinfoAlign.ID, cpu, v)
		}
	case "vendor_id":
		b.SetString(cpuinfoVendor.ID, cpu, value)
	case "model":
		b.SetString(cpuinfoModel.ID, cpu, value)
	case "model name":
		b.SetString(cpuinfoModelName.ID, cpu, value)
	case "stepping":
		b.SetString(cpuinfoStepping.ID, cpu, value)
	case "flags":
		b.SetString(cpuinfoFlags.ID, cpu, value)
	}
}

// instances is the table of the CPUs listed, rebuilt only when they change.
func (c *cpuinfoCollector) instances(seen map[int]bool) *cache.Instances {
	if c.list != nil && len(seen) == len(c.cpus) {
		same := true
		for cpu := range seen {
			same = same && c.cpus[cpu]
		}
		if same {
			return c.list
		}
	}
	list := make([]cache.Instance, 0, len(seen))
	for cpu := 0; len(list) < len(seen); cpu++ {
		if seen[cpu] {
			list = append(list, cache.Instance{ID: uint32(cpu), Name: "cpu" + strconv.Itoa(cpu)})
		}
	}
	c.cpus, c.list = seen, cache.NewInstances(list)
	return c.list
}
