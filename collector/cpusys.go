package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Each CPU's state in /sys/devices/system/cpu, with pmdalinux's items
// (its clusters 55 and 18): online or not, and the thermal throttling the
// kernel counts on processors that report it. pmie's enabled
// thermal-throttle rule reads the package throttle time.
var (
	cpuOnline = engine.Row{Name: "hostcache.hinv.cpu.online", Cluster: clusterCPUSys, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomCPUSys}.Desc()
	cpuCoreThrCount = engine.Row{Name: "hostcache.hinv.cpu.thermal_throttle.core.count", Cluster: clusterCPUSys,
		Item: 2, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCPUSys}.Desc()
	cpuCoreThrTime = engine.Row{Name: "hostcache.hinv.cpu.thermal_throttle.core.time", Cluster: clusterCPUSys,
		Item: 3, Type: cache.TypeU64, Sem: cache.SemCounter,
		Units: cache.MakeUnits(0, 1, 0, 0, cache.TimeMSec, 0), InDom: indomCPUSys}.Desc()
	cpuPkgThrCount = engine.Row{Name: "hostcache.hinv.cpu.thermal_throttle.package.count",
		Cluster: clusterCPUSys, Item: 4, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomCPUSys}.Desc()
	// pmdalinux declares the package throttle time a count, not time; the
	// twin keeps its descriptor. The value is milliseconds.
	cpuPkgThrTime = engine.Row{Name: "hostcache.hinv.cpu.thermal_throttle.package.time", Cluster: clusterCPUSys,
		Item: 5, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCPUSys}.Desc()
	cpuMapNum = engine.Row{Name: "hostcache.hinv.map.cpu_num", Cluster: clusterCPUSys, Item: 6,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomCPUSys}.Desc()
	// The NUMA node of each CPU: its nodeN link in sysfs, node 0 without
	// one (a kernel without NUMA), as pmdalinux.
	cpuMapNode = engine.Row{Name: "hostcache.hinv.map.cpu_node", Cluster: clusterCPUSys, Item: 8,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomCPUSys}.Desc()
)

// cpuThrottleFiles are the thermal_throttle attributes and their metrics.
var cpuThrottleFiles = []struct {
	name string
	desc cache.Desc
}{
	{"core_throttle_count", cpuCoreThrCount}, {"core_throttle_total_time_ms", cpuCoreThrTime},
	{"package_throttle_count", cpuPkgThrCount}, {"package_throttle_total_time_ms", cpuPkgThrTime},
}

// cpuSysFiles are one CPU's attribute files, opened once.
type cpuSysFiles struct {
	online   *kernel.File
	throttle []*kernel.File // as cpuThrottleFiles; nil without thermal_throttle
	freq     *cpuFreqFiles  // cpufreq.go
	node     uint64         // the CPU's NUMA node, read once
}

// cpusysCollector reads the attributes of the CPUs sysfs lists as present.
type cpusysCollector struct {
	sys     string // the /sys root
	dir     string // its devices/system/cpu
	present *kernel.File
	cpus    numbered[*cpuSysFiles]
	buf     []byte
}

// NewCPUSysCollector names the CPU directory below env.Sys.
func NewCPUSysCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("cpusys: sys root: %w", err)
	}
	dir := filepath.Join(env.Sys, "devices", "system", "cpu")
	return &cpusysCollector{sys: env.Sys, dir: dir,
		present: kernel.NewFileKept(env.Sys, filepath.Join(dir, "present"), env.KeepFiles),
		cpus:    numbered[*cpuSysFiles]{prefix: "cpu"}}, nil
}

func (c *cpusysCollector) Name() string { return "cpusys" }

func (c *cpusysCollector) Source() cache.Source {
	return cache.Source{
		Name: c.Name(),
		Metrics: []cache.Desc{cpuOnline, cpuCoreThrCount, cpuCoreThrTime, cpuPkgThrCount, cpuPkgThrTime,
			cpuMapNum, cpuMapNode,
			cpuFreqCount, cpuFreqTime, cpuFreqMax, cpuFreqMin},
		InDoms: []cache.InDomDesc{{ID: indomCPUSys, Name: "cpusys",
			Labels: hostkit.IndomLabels(`"cpu"`, "per cpu"), IDLabel: "cpu"}},
	}
}

// Bounds declares the time counters' physical limits: a CPU is throttled,
// or runs at some frequency, for at most a second each second. The
// frequency time is bounded in its declared microseconds; time_in_state
// counts in 10 ms units, so that bound is loose but still stops absurd
// values.
func (c *cpusysCollector) Bounds() []engine.Bounded {
	micro := engine.Bound{PerSecond: 1e6, Slack: timeSlack}
	return []engine.Bounded{
		engine.WithBound(cpuCoreThrTime, oneCPUTime),
		engine.WithBound(cpuPkgThrTime, oneCPUTime), // milliseconds, whatever its units say
		engine.WithBound(cpuFreqTime, micro),
	}
}

// Sample reads the present list, then each CPU's attributes.
func (c *cpusysCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.present.Read(c.buf); err != nil {
		return err
	}
	line, _ := kernel.AttrLine(c.buf)
	cpus, ok := kernel.ParseCPUList(line)
	if !ok || len(cpus) == 0 {
		return fmt.Errorf("%s: not a CPU list: %q", c.present.Path, line)
	}
	b.SetInDom(indomCPUSys, c.cpus.update(cpus, c.openCPU))
	for _, cpu := range cpus {
		c.sampleCPU(b, cpu, c.cpus.get(cpu))
	}
	return nil
}

// sampleCPU publishes one CPU's values. As pmdalinux: a CPU without an
// online attribute (the boot CPU, which cannot be taken offline) is
// online, and one without thermal_throttle has not been throttled.
func (c *cpusysCollector) sampleCPU(b *cache.Builder, cpu int, f *cpuSysFiles) {
	inst := uint32(cpu)
	b.SetU64(cpuMapNum.ID, inst, uint64(cpu))
	b.SetU64(cpuMapNode.ID, inst, f.node)
	online := uint64(1)
	var err error
	if c.buf, err = f.online.Read(c.buf); err == nil {
		if line, ok := kernel.AttrLine(c.buf); ok {
			if v, ok := kernel.ParseDecimal(line); ok {
				online = v
			}
		}
	}
	b.SetU64(cpuOnline.ID, inst, online)
	for i, tf := range cpuThrottleFiles {
		v := uint64(0)
		if f.throttle == nil {
			b.SetU64(tf.desc.ID, inst, v)
			continue
		}
		if c.buf, err = f.throttle[i].Read(c.buf); err == nil {
			if line, ok := kernel.AttrLine(c.buf); ok {
				v, _ = kernel.ParseDecimal(line)
			}
		}
		b.SetU64(tf.desc.ID, inst, v)
	}
	c.sampleCPUFreq(b, inst, f.freq)
}

// openCPU opens a new CPU's attribute files. Only processors that report
// throttling have the thermal_throttle directory: elsewhere no file is
// tried each sample.
func (c *cpusysCollector) openCPU(_ int, name string) *cpuSysFiles {
	f := &cpuSysFiles{online: kernel.NewFile(c.sys, filepath.Join(c.dir, name, "online"))}
	if st, err := os.Stat(filepath.Join(c.dir, name, "thermal_throttle")); err == nil && st.IsDir() {
		for _, tf := range cpuThrottleFiles {
			f.throttle = append(f.throttle,
				kernel.NewFile(c.sys, filepath.Join(c.dir, name, "thermal_throttle", tf.name)))
		}
	}
	f.freq = c.openCPUFreq(name)
	f.node = cpuNode(filepath.Join(c.dir, name))
	return f
}

// cpuNode is the N of a CPU directory's nodeN entry; 0 without one.
func cpuNode(dir string) uint64 {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Name(), "node"); ok {
			if n, err := strconv.ParseUint(rest, 10, 32); err == nil {
				return n
			}
		}
	}
	return 0
}
