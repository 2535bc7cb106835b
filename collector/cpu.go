package collector

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/prometheus/procfs"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// cpuTimes lists the CPU time metrics, pmdalinux's names below kernel.all.cpu
// (item n) and kernel.percpu.cpu (item n+percpuItemOffset), with the field
// of /proc/stat each one reads. vuser and vnice exclude guest time, as in
// pmdalinux; user and nice include it.
var cpuTimes = []struct {
	item uint32
	name string
	ms   func(s procfs.CPUStat) float64
}{
	{0, "user", func(s procfs.CPUStat) float64 { return s.User }},
	{1, "nice", func(s procfs.CPUStat) float64 { return s.Nice }},
	{2, "sys", func(s procfs.CPUStat) float64 { return s.System }},
	{3, "idle", func(s procfs.CPUStat) float64 { return s.Idle }},
	{4, "intr", func(s procfs.CPUStat) float64 { return s.IRQ + s.SoftIRQ }},
	{5, "wait.total", func(s procfs.CPUStat) float64 { return s.Iowait }},
	{6, "irq.hard", func(s procfs.CPUStat) float64 { return s.IRQ }},
	{7, "irq.soft", func(s procfs.CPUStat) float64 { return s.SoftIRQ }},
	{8, "steal", func(s procfs.CPUStat) float64 { return s.Steal }},
	{9, "guest", func(s procfs.CPUStat) float64 { return s.Guest }},
	{10, "guest_nice", func(s procfs.CPUStat) float64 { return s.GuestNice }},
	{11, "vuser", func(s procfs.CPUStat) float64 { return s.User - s.Guest }},
	{12, "vnice", func(s procfs.CPUStat) float64 { return s.Nice - s.GuestNice }},
}

const percpuItemOffset = 20

// cpuUtil lists PCP's derived CPU utilisation metrics (cpu-util.conf) that we
// compute natively: 100 * rate(kernel.all.cpu.X) / hinv.ncpu.
var cpuUtil = []struct {
	item    uint32
	name    string
	counter uint32 // item of the kernel.all.cpu counter
}{
	{60, "user", 0}, {61, "nice", 1}, {62, "sys", 2}, {63, "idle", 3},
	{64, "intr", 4}, {65, "wait", 5}, {66, "steal", 8},
}

var (
	statPswitch  = engine.Metric("hostcache.kernel.all.pswitch", clusterStat, 40, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	statSysfork  = engine.Metric("hostcache.kernel.all.sysfork", clusterStat, 41, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	statIntr     = engine.Metric("hostcache.kernel.all.intr", clusterStat, 42, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	statRunning  = engine.Metric("hostcache.kernel.all.running", clusterStat, 43, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	statBlocked  = engine.Metric("hostcache.kernel.all.blocked", clusterStat, 44, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
	statBoottime = engine.Metric("hostcache.kernel.all.boottime", clusterStat, 45, cache.TypeI64, cache.SemDiscrete, cache.UnitsSec, cache.InDomNone)
	statNCPU     = engine.Metric("hostcache.hinv.ncpu", clusterStat, 46, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
	statHZ       = engine.Metric("hostcache.kernel.all.hz", clusterStat, 47, cache.TypeU32, cache.SemDiscrete, cache.UnitsCountPerSec, cache.InDomNone)
)

func allCPUDesc(item uint32, name string) cache.Desc {
	return engine.Metric(engine.Prefix+"kernel.all.cpu."+name, clusterStat, item, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, cache.InDomNone)
}

func perCPUDesc(item uint32, name string) cache.Desc {
	return engine.Metric(engine.Prefix+"kernel.percpu.cpu."+name, clusterStat, item+percpuItemOffset, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, indomCPU)
}

func utilDesc(item uint32, name string) cache.Desc {
	return engine.Metric(engine.Prefix+"kernel.cpu.util."+name, clusterStat, item, cache.TypeDouble, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
}

// cpuCollector reads /proc/stat: CPU time, all and per CPU, and kernel activity.
type cpuCollector struct {
	path  string // <proc>/stat
	file  *kernel.File
	buf   []byte            // the file's text, reused
	st    kernel.StatSample // parsed, reused
	all   []cache.Desc      // kernel.all.cpu.*, in cpuTimes order
	per   []cache.Desc      // kernel.percpu.cpu.*, in cpuTimes order
	rates *engine.Rates
	// cpus caches the CPU instance table while the set of CPUs is unchanged.
	cpus *cache.Instances
}

// NewCPUCollector opens /proc below env.Proc.
func NewCPUCollector(env engine.Env) (engine.Collector, error) {
	if _, err := procfs.NewFS(env.Proc); err != nil {
		return nil, fmt.Errorf("cpu: %w", err) // the root must be a directory
	}
	path := filepath.Join(env.Proc, "stat")
	c := &cpuCollector{path: path, file: kernel.NewFile(env.Proc, path), buf: make([]byte, 0, 16*1024), rates: engine.NewRates()}
	for _, t := range cpuTimes {
		c.all = append(c.all, allCPUDesc(t.item, t.name))
		c.per = append(c.per, perCPUDesc(t.item, t.name))
	}
	return c, nil
}

func (c *cpuCollector) Name() string { return "cpu" }

func (c *cpuCollector) Resets() uint64 { return c.rates.Resets }

func (c *cpuCollector) Source() cache.Source {
	descs := append(append([]cache.Desc(nil), c.all...), c.per...)
	descs = append(descs, statPswitch, statSysfork, statIntr)
	for _, u := range cpuUtil {
		descs = append(descs, utilDesc(u.item, u.name))
	}
	descs = append(descs, statRunning, statBlocked, statBoottime, statNCPU, statHZ)
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms:  []cache.InDomDesc{{ID: indomCPU, Name: "cpu"}},
	}
}

// Sample reads /proc/stat once.
func (c *cpuCollector) Sample(b *cache.Builder, now time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return fmt.Errorf("reading stat: %w", err)
	}
	st := &c.st
	if err := kernel.ParseStat(c.buf, st); err != nil {
		return fmt.Errorf("parsing stat: %w", err)
	}
	c.rates.Begin(now)
	for i, t := range cpuTimes {
		c.rates.Counter(b, &c.all[i], cache.InstNone, toMS(t.ms(st.Total)))
	}
	c.publishCPUs(b, st.CPUs)
	for _, cpu := range st.CPUs {
		for i, t := range cpuTimes {
			c.rates.Counter(b, &c.per[i], uint32(cpu.ID), toMS(t.ms(cpu.Stat)))
		}
	}
	if st.HasCtxt {
		c.rates.Counter(b, &statPswitch, cache.InstNone, st.Ctxt)
	}
	if st.HasProcesses {
		c.rates.Counter(b, &statSysfork, cache.InstNone, st.Processes)
	}
	if st.HasIntr {
		c.rates.Counter(b, &statIntr, cache.InstNone, st.Intr)
	}
	b.SetU64(statRunning.ID, cache.InstNone, st.Running)
	b.SetU64(statBlocked.ID, cache.InstNone, st.Blocked)
	if st.HasBootTime {
		b.SetI64(statBoottime.ID, cache.InstNone, int64(st.BootTime))
	}
	b.SetU64(statNCPU.ID, cache.InstNone, uint64(len(st.CPUs)))
	b.SetU64(statHZ.ID, cache.InstNone, kernel.UserHZ)
	c.publishUtil(b, len(st.CPUs))
	c.rates.Commit()
	return nil
}

// publishCPUs publishes the CPU instance domain. Instance id N is "cpuN",
// as pmdalinux numbers them; the kernel lists CPUs in order.
func (c *cpuCollector) publishCPUs(b *cache.Builder, cpus []kernel.CPUStat) {
	if !sameCPUs(c.cpus, cpus) {
		list := make([]cache.Instance, len(cpus))
		for i, cpu := range cpus {
			list[i] = cache.Instance{ID: uint32(cpu.ID), Name: "cpu" + strconv.FormatInt(cpu.ID, 10)}
		}
		c.cpus = cache.NewInstances(list)
	}
	b.SetInDom(indomCPU, c.cpus)
}

func sameCPUs(in *cache.Instances, cpus []kernel.CPUStat) bool {
	if in == nil || in.Len() != len(cpus) {
		return false
	}
	for i, x := range in.All() {
		if int64(x.ID) != cpus[i].ID {
			return false
		}
	}
	return true
}

// publishUtil derives the utilisation percentages from this interval's deltas.
func (c *cpuCollector) publishUtil(b *cache.Builder, ncpu int) {
	secs, ok := c.rates.Interval()
	if !ok || ncpu == 0 {
		return
	}
	for _, u := range cpuUtil {
		d, ok := c.rates.Delta(cache.NewMetricID(clusterStat, u.counter), cache.InstNone)
		if !ok {
			continue
		}
		// d is milliseconds of CPU time over secs seconds of ncpu CPUs.
		b.SetDouble(cache.NewMetricID(clusterStat, u.item), cache.InstNone, 100*float64(d)/1000/secs/float64(ncpu))
	}
}

// toMS converts procfs's seconds (ticks/USER_HZ) to whole milliseconds as
// pmdalinux does (1000 * ticks / HZ); rounding undoes float error.
func toMS(secs float64) uint64 {
	if secs <= 0 {
		return 0
	}
	return uint64(math.Round(secs * 1000))
}
