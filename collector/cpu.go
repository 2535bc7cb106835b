package collector

import (
	"fmt"
	"math"
	"math/bits"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// cpuTimes lists the CPU time metrics, pmdalinux's names below kernel.all.cpu
// (item n) and kernel.percpu.cpu (item n+20), with the ticks of /proc/stat
// each one reads. vuser and vnice exclude guest time, as in pmdalinux; user
// and nice include it.
var cpuTimes = []struct {
	all, per cache.Desc
	ticks    func(t *kernel.CPUTicks) uint64
}{
	{engine.Row{Name: "hostcache.kernel.all.cpu.user", Cluster: clusterStat, Item: 0, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.user", Cluster: clusterStat, Item: 20,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.User }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.nice", Cluster: clusterStat, Item: 1, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.nice", Cluster: clusterStat, Item: 21,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.Nice }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.sys", Cluster: clusterStat, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.sys", Cluster: clusterStat, Item: 22, Type: cache.TypeU64,
			Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.System }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.idle", Cluster: clusterStat, Item: 3, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.idle", Cluster: clusterStat, Item: 23,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.Idle }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.intr", Cluster: clusterStat, Item: 4, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.intr", Cluster: clusterStat, Item: 24,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return addTicks(t.IRQ, t.SoftIRQ) }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.wait.total", Cluster: clusterStat, Item: 5, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.wait.total", Cluster: clusterStat, Item: 25,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.Iowait }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.irq.hard", Cluster: clusterStat, Item: 6, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.irq.hard", Cluster: clusterStat, Item: 26,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.IRQ }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.irq.soft", Cluster: clusterStat, Item: 7, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.irq.soft", Cluster: clusterStat, Item: 27,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.SoftIRQ }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.steal", Cluster: clusterStat, Item: 8, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.steal", Cluster: clusterStat, Item: 28,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.Steal }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.guest", Cluster: clusterStat, Item: 9, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.guest", Cluster: clusterStat, Item: 29,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.Guest }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.guest_nice", Cluster: clusterStat, Item: 10,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.guest_nice", Cluster: clusterStat, Item: 30,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return t.GuestNice }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.vuser", Cluster: clusterStat, Item: 11, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.vuser", Cluster: clusterStat, Item: 31,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return clampedTicks(t.User, t.Guest) }},
	{engine.Row{Name: "hostcache.kernel.all.cpu.vnice", Cluster: clusterStat, Item: 12, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: cache.InDomNone}.Desc(),
		engine.Row{Name: "hostcache.kernel.percpu.cpu.vnice", Cluster: clusterStat, Item: 32,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomCPU}.Desc(),
		func(t *kernel.CPUTicks) uint64 { return clampedTicks(t.Nice, t.GuestNice) }},
}

// No CPU runs more than a second each second: each CPU time counter of
// one CPU grows by at most 1000 ms a second, the host's by hinv.ncpu times
// that (engine.Bound). A step beyond is an absurd value, a reset.
var (
	oneCPUTime  = engine.Bound{PerSecond: 1000, Slack: timeSlack}
	allCPUsTime = engine.Bound{PerSecond: 1000, Units: &statNCPU, Slack: timeSlack}
)

// timeSlack is what a bounded time counter may read over a step beyond
// the step itself. The kernel accounts time in ticks and /proc shows it
// truncated to ticks, so a busy CPU's time over a step reads up to two
// ticks (20 ms at USER_HZ 100) more than the step: 1.01 s over 1 s is
// common. And the agent takes a sample's time just before it reads the
// file: preempted in between, by up to a scheduler latency on a busy host
// (some 24 ms), it reads a longer step than it times. 50 ms covers both;
// over a 1 s step a figure may then read 5 % above its physical limit,
// while an absurd value (7e14 s/s) is still a reset.
const timeSlack = 50 * time.Millisecond

// clampedTicks is a - b, or 0 should b exceed a (guest time is sampled
// apart from user time and may briefly run ahead).
func clampedTicks(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// cpuUtil lists PCP's derived CPU utilisation metrics (cpu-util.conf),
// computed over each client's own interval as the conf computes them from
// the raw counters: 100 * rate(kernel.all.cpu.X) / hinv.ncpu.
var cpuUtil = []struct {
	desc    cache.Desc
	counter uint32 // item of the kernel.all.cpu counter
}{
	{engine.Row{Name: "hostcache.kernel.cpu.util.user", Cluster: clusterStat, Item: 60, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 0},
	{engine.Row{Name: "hostcache.kernel.cpu.util.nice", Cluster: clusterStat, Item: 61, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 1},
	{engine.Row{Name: "hostcache.kernel.cpu.util.sys", Cluster: clusterStat, Item: 62, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 2},
	{engine.Row{Name: "hostcache.kernel.cpu.util.idle", Cluster: clusterStat, Item: 63, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 3},
	{engine.Row{Name: "hostcache.kernel.cpu.util.intr", Cluster: clusterStat, Item: 64, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 4},
	{engine.Row{Name: "hostcache.kernel.cpu.util.wait", Cluster: clusterStat, Item: 65, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 5},
	{engine.Row{Name: "hostcache.kernel.cpu.util.steal", Cluster: clusterStat, Item: 66, Type: cache.TypeDouble,
		Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc(), 8},
}

var (
	statPswitch = engine.Row{Name: "hostcache.kernel.all.pswitch", Cluster: clusterStat, Item: 40,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	statSysfork = engine.Row{Name: "hostcache.kernel.all.sysfork", Cluster: clusterStat, Item: 41,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	statIntr = engine.Row{Name: "hostcache.kernel.all.intr", Cluster: clusterStat, Item: 42,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
	statRunning = engine.Row{Name: "hostcache.kernel.all.running", Cluster: clusterStat, Item: 43,
		Type: cache.TypeU64, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	statBlocked = engine.Row{Name: "hostcache.kernel.all.blocked", Cluster: clusterStat, Item: 44,
		Type: cache.TypeU64, Sem: cache.SemInstant, InDom: cache.InDomNone}.Desc()
	statBoottime = engine.Row{Name: "hostcache.kernel.all.boottime", Cluster: clusterStat, Item: 45,
		Type: cache.TypeI64, Sem: cache.SemDiscrete, Units: cache.UnitsSec, InDom: cache.InDomNone}.Desc()
	statNCPU = engine.Row{Name: "hostcache.hinv.ncpu", Cluster: clusterStat, Item: 46, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
	statHZ = engine.Row{Name: "hostcache.kernel.all.hz", Cluster: clusterStat, Item: 47,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, Units: cache.UnitsCountPerSec,
		InDom: cache.InDomNone}.Desc()
)

// cpuCollector reads /proc/stat: CPU time, all and per CPU, and kernel activity.
type cpuCollector struct {
	path string // <proc>/stat
	file *kernel.File
	buf  []byte            // the file's text, reused
	st   kernel.StatSample // parsed, reused
	all  []cache.Desc      // kernel.all.cpu.*, in cpuTimes order
	per  []cache.Desc      // kernel.percpu.cpu.*, in cpuTimes order
	// cpus caches the CPU instance table while the set of CPUs is unchanged.
	cpus *cache.Instances
	// nodes sums the CPU times per NUMA node.
	nodes *cpuNodes
	memo  kernel.Memo // the text of the last sample built
}

// NewCPUCollector opens /proc below env.Proc.
func NewCPUCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Proc); err != nil {
		return nil, fmt.Errorf("cpu: %w", err)
	}
	path := filepath.Join(env.Proc, "stat")
	c := &cpuCollector{path: path, file: kernel.NewFileKept(env.Proc, path, env.KeepFiles),
		buf: make([]byte, 0, 16*1024), nodes: loadCPUNodes(env.Sys)}
	for _, t := range cpuTimes {
		// pmdalinux labels the host-wide CPU times, which have no indom
		// to carry it, with the device they measure.
		all := t.all
		all.Labels = []cache.Label{cache.StringLabel("device_type", "cpu")}
		c.all = append(c.all, all)
		c.per = append(c.per, t.per)
	}
	return c, nil
}

func (c *cpuCollector) Name() string { return "cpu" }

func (c *cpuCollector) Source() cache.Source {
	descs := append(append([]cache.Desc(nil), c.all...), c.per...)
	descs = append(descs, statPswitch, statSysfork, statIntr)
	descs = append(descs, statRunning, statBlocked, statBoottime, statNCPU, statHZ, statNNode)
	for _, d := range nodeTimes {
		// As pmdalinux: the device measured is a CPU, of a NUMA node.
		d.Labels = []cache.Label{{Name: "device_type", Value: `["numa_node","cpu"]`}}
		descs = append(descs, d)
	}
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms: []cache.InDomDesc{
			{ID: indomCPU, Name: "cpu", Labels: hostkit.IndomLabels(`"cpu"`, "per cpu"), IDLabel: "cpu"},
			{ID: indomNode, Name: "node", Labels: hostkit.IndomLabels(`"numa_node"`, "per numa_node"),
				IDLabel: "numa_node"},
		},
	}
}

// Sample reads /proc/stat once.
func (c *cpuCollector) Sample(b *cache.Builder, now time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return fmt.Errorf("reading stat: %w", err)
	}
	if c.memo.Same(c.buf) && b.Again() {
		return nil // the same text: the same values as last time
	}
	st := &c.st
	if err := kernel.ParseStat(c.buf, st); err != nil {
		return fmt.Errorf("parsing stat: %w", err)
	}
	for i, t := range cpuTimes {
		b.SetU64(c.all[i].ID, cache.InstNone, toMS(t.ticks(&st.Total)))
	}
	c.publishCPUs(b, st.CPUs)
	c.nodes.publish(b, st.CPUs)
	for _, cpu := range st.CPUs {
		for i, t := range cpuTimes {
			b.SetU64(c.per[i].ID, uint32(cpu.ID), toMS(t.ticks(&cpu.Ticks)))
		}
	}
	if st.HasCtxt {
		b.SetU64(statPswitch.ID, cache.InstNone, st.Ctxt)
	}
	if st.HasProcesses {
		b.SetU64(statSysfork.ID, cache.InstNone, st.Processes)
	}
	if st.HasIntr {
		b.SetU64(statIntr.ID, cache.InstNone, st.Intr)
	}
	b.SetU64(statRunning.ID, cache.InstNone, st.Running)
	b.SetU64(statBlocked.ID, cache.InstNone, st.Blocked)
	if st.HasBootTime {
		b.SetI64(statBoottime.ID, cache.InstNone, int64(st.BootTime))
	}
	b.SetU64(statNCPU.ID, cache.InstNone, uint64(len(st.CPUs)))
	b.SetU64(statHZ.ID, cache.InstNone, kernel.UserHZ)
	c.memo.Keep(c.buf)
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

// Derived declares the utilisation percentages: the growth of each CPU
// time counter over the client's interval, in seconds, per second of
// interval and per CPU (hinv.ncpu as last sampled). The busiest and idlest
// sampling step inside the interval are their peaks.
func (c *cpuCollector) Derived() []engine.Derived {
	out := make([]engine.Derived, 0, len(cpuUtil))
	for _, u := range cpuUtil {
		counter := cache.NewMetricID(clusterStat, u.counter)
		out = append(out, engine.Derived{Desc: u.desc, Like: counter, Peaks: true,
			Value: func(w *engine.Window, inst uint32) (float64, bool) {
				ncpu, ok := w.Published(statNCPU.ID, cache.InstNone)
				d, secs, okD := w.DeltaSeconds(counter, inst)
				if !ok || !okD || ncpu.Bits == 0 || secs <= 0 {
					return 0, false
				}
				// d is milliseconds of CPU time over secs seconds of ncpu CPUs.
				return 100 * float64(d) / 1000 / secs / float64(ncpu.Bits), true
			}})
	}
	return out
}

// toMS converts USER_HZ ticks to milliseconds as pmdalinux does, 1000 *
// ticks / HZ, exactly and in integers. A count whose milliseconds do not
// fit (a field of 2^64-1) gives 2^64-1, never a wrapped product that
// could pass for growth: the engine takes the step to it and the step
// back for resets.
func toMS(ticks uint64) uint64 {
	q, r := ticks/kernel.UserHZ, ticks%kernel.UserHZ
	hi, ms := bits.Mul64(q, 1000)
	ms, carry := bits.Add64(ms, r*1000/kernel.UserHZ, 0)
	if hi != 0 || carry != 0 {
		return math.MaxUint64
	}
	return ms
}

// addTicks sums tick counts, 2^64-1 when the sum does not fit: an absurd
// field stays absurd in a sum (intr, a node's CPUs) rather than wrapping
// round to a count that could pass for growth.
func addTicks(a, b uint64) uint64 {
	sum, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return sum
}

// Bounds declares the CPU time counters' physical limits: one CPU's time
// per CPU, hinv.ncpu CPUs' for the host, a node's CPUs' for the node.
func (c *cpuCollector) Bounds() []engine.Bounded {
	out := make([]engine.Bounded, 0, 2*len(cpuTimes)+len(nodeTimes))
	for i := range cpuTimes {
		out = append(out, engine.WithBound(c.all[i], allCPUsTime), engine.WithBound(c.per[i], oneCPUTime))
	}
	node := engine.Bound{PerSecond: 1000, UnitsOf: c.nodes.cpusOf, Slack: timeSlack}
	for _, d := range nodeTimes {
		out = append(out, engine.WithBound(d, node))
	}
	return out
}
