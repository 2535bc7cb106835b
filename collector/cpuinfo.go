package collector

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The processors as /proc/cpuinfo describes them, with pmdalinux's items
// of its cpuinfo cluster.
var (
	cpuinfoClock     = engine.Metric("hostcache.hinv.cpu.clock", clusterCPUInfo, 0, cache.TypeFloat, cache.SemDiscrete, cache.MakeUnits(0, -1, 0, 0, cache.TimeUSec, 0), indomCPUInfo)
	cpuinfoVendor    = engine.Metric("hostcache.hinv.cpu.vendor", clusterCPUInfo, 1, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoModel     = engine.Metric("hostcache.hinv.cpu.model", clusterCPUInfo, 2, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoStepping  = engine.Metric("hostcache.hinv.cpu.stepping", clusterCPUInfo, 3, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoCache     = engine.Metric("hostcache.hinv.cpu.cache", clusterCPUInfo, 4, cache.TypeU32, cache.SemDiscrete, cache.UnitsKByte, indomCPUInfo)
	cpuinfoBogomips  = engine.Metric("hostcache.hinv.cpu.bogomips", clusterCPUInfo, 5, cache.TypeFloat, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoModelName = engine.Metric("hostcache.hinv.cpu.model_name", clusterCPUInfo, 9, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoFlags     = engine.Metric("hostcache.hinv.cpu.flags", clusterCPUInfo, 10, cache.TypeString, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
	cpuinfoAlign     = engine.Metric("hostcache.hinv.cpu.cache_alignment", clusterCPUInfo, 11, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, indomCPUInfo)
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
	path, err := procFile(env, "cpuinfo")
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
		InDoms: []cache.InDomDesc{{ID: indomCPUInfo, Name: "cpuinfo", Labels: indomLabels(`"cpu"`, "per cpu"), IDLabel: "cpu"}},
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
