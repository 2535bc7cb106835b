package collector

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Interrupt and soft interrupt counts per source and per CPU, from
// /proc/interrupts and /proc/softirqs, with pmdalinux's items (its
// clusters 4, 63 and 82). pmrep's :sar-I views, pcp-dstat's interrupt
// plugins and pcp-mpstat -I read them.
var (
	intrTotal = engine.Row{Name: "hostcache.kernel.all.interrupts.total", Cluster: clusterInterrupts, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomIRQ}.Desc()
	intrPerCPU = engine.Row{Name: "hostcache.kernel.percpu.interrupts", Cluster: clusterInterrupts, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomIRQCPU}.Desc()
	intrMissed = engine.Row{Name: "hostcache.kernel.all.interrupts.missed", Cluster: clusterInterrupts,
		Item: 2, Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	intrErrors = engine.Row{Name: "hostcache.kernel.all.interrupts.errors", Cluster: clusterInterrupts,
		Item: 3, Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: cache.InDomNone}.Desc()
	intrCPUSum = engine.Row{Name: "hostcache.kernel.percpu.intr", Cluster: clusterInterrupts, Item: 4,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomIRQCPUs}.Desc()
	sirqPerCPU = engine.Row{Name: "hostcache.kernel.percpu.softirqs", Cluster: clusterSoftirqs, Item: 0,
		Type: cache.TypeU32, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomSoftirqCPU}.Desc()
	sirqCPUSum = engine.Row{Name: "hostcache.kernel.percpu.sirq", Cluster: clusterSoftirqs, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomIRQCPUs}.Desc()
	sirqTotal = engine.Row{Name: "hostcache.kernel.all.softirqs.total", Cluster: clusterSoftirqTotal, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomSoftirq}.Desc()
	intrSources = []cache.Desc{intrTotal, intrPerCPU, intrMissed, intrErrors, intrCPUSum, sirqPerCPU, sirqCPUSum,
		sirqTotal}
)

// irqFile is one of the two tables and the instances made of it, kept
// while its sources and CPUs stay the same.
type irqFile struct {
	file            *kernel.File
	table           kernel.IRQTable
	names, texts    []string // the sources last seen, in file order
	cpus            []int
	lineIDs, cpuIDs []uint32 // instance ids: per source; per source x CPU
	lines, perCPU   *cache.Instances
	lineMap         *cache.IDMap
	// cpuMap, when set, gives the per-CPU instances their ids instead of
	// perCPUID: the stand-in for pmdalinux keeps pmdalinux's ids.
	cpuMap  *cache.IDMap
	sums    []uint64 // each CPU's sum over the sources
	softirq bool     // /proc/softirqs, whose instances pmdalinux labels otherwise
	buf     []byte   // its own: the table's names point into it
	// memo is the text table was parsed from; same says this sample read
	// it again, so table still holds its values and was not parsed.
	memo kernel.Memo
	same bool
}

// interruptsCollector reads /proc/interrupts and /proc/softirqs. Their
// size is sources x CPUs (a few hundred thousand counts on the largest
// hosts), so the instance tables are rebuilt only when a source or a CPU
// comes or goes, and a sample costs a parse and the values.
type interruptsCollector struct {
	intr, sirq irqFile
	cpuList    *cache.Instances // the CPUs of both files' columns
}

// NewInterruptsCollector names the two files below env.Proc.
func NewInterruptsCollector(env engine.Env) (engine.Collector, error) {
	intr, err := hostkit.ProcFile(env, "interrupts")
	if err != nil {
		return nil, fmt.Errorf("interrupts: %w", err)
	}
	sirq, _ := hostkit.ProcFile(env, "softirqs")
	c := &interruptsCollector{
		intr: irqFile{file: kernel.NewFileKept(env.Proc, intr, env.KeepFiles), lineMap: env.IDMap(indomIRQ)},
		sirq: irqFile{file: kernel.NewFileKept(env.Proc, sirq, env.KeepFiles), lineMap: env.IDMap(indomSoftirq),
			softirq: true},
	}
	if env.ForeignIDs(indomIRQCPU) {
		c.intr.cpuMap = env.IDMap(indomIRQCPU)
	}
	if env.ForeignIDs(indomSoftirqCPU) {
		c.sirq.cpuMap = env.IDMap(indomSoftirqCPU)
	}
	return c, nil
}

func (c *interruptsCollector) Name() string { return "interrupts" }

func (c *interruptsCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: intrSources, InDoms: []cache.InDomDesc{
		{ID: indomIRQ, Name: "interrupts", Labels: hostkit.IndomLabels(`"irq"`, "per irq")},
		{ID: indomIRQCPU, Name: "interrupts per cpu",
			Labels: hostkit.IndomLabels(`["irq","cpu"]`, "per cpu, per irq"), Derive: perCPULabels("irq")},
		{ID: indomSoftirq, Name: "softirqs",
			Labels: []cache.Label{cache.StringLabel("indom_name", "per softirq")}},
		{ID: indomSoftirqCPU, Name: "softirqs per cpu",
			Labels: hostkit.IndomLabels(`"cpu"`, "per cpu, per softirq"), Derive: perCPULabels("softirq")},
		{ID: indomIRQCPUs, Name: "interrupt cpus", Labels: hostkit.IndomLabels(`"cpu"`, "per cpu"),
			IDLabel: "cpu"},
	}}
}

// Sample reads both tables; a kernel without softirqs (before 2.6.31)
// loses only those metrics.
func (c *interruptsCollector) Sample(b *cache.Builder, _ time.Time) error {
	errIntr, errSirq := c.read(&c.intr), c.read(&c.sirq)
	if errIntr != nil && errSirq != nil {
		return errors.Join(errIntr, errSirq)
	}
	if errIntr == nil && errSirq == nil && c.intr.same && c.sirq.same && b.Again() {
		return nil // both texts as last time: the same values
	}
	c.publishCPUs(b, errIntr == nil, errSirq == nil)
	if errIntr == nil {
		f := &c.intr
		b.SetInDom(indomIRQ, f.lines)
		b.SetInDom(indomIRQCPU, f.perCPU)
		f.publish(b, intrTotal, intrPerCPU, intrCPUSum)
		for _, s := range f.table.Single {
			switch string(s.Name) {
			case "ERR", "Err", "BAD":
				b.SetU64(intrErrors.ID, cache.InstNone, uint64(uint32(s.Count)))
			case "MIS":
				b.SetU64(intrMissed.ID, cache.InstNone, uint64(uint32(s.Count)))
			}
		}
	}
	if errSirq == nil {
		f := &c.sirq
		b.SetInDom(indomSoftirq, f.lines)
		b.SetInDom(indomSoftirqCPU, f.perCPU)
		f.publish(b, sirqTotal, sirqPerCPU, sirqCPUSum)
	}
	return engine.Partial(errors.Join(errIntr, errSirq))
}

// publishCPUs sets the CPU domain of the per-CPU sums: the CPUs of both
// tables (/proc/interrupts lists the online CPUs, /proc/softirqs the
// possible ones), rebuilt only when either changes.
func (c *interruptsCollector) publishCPUs(b *cache.Builder, intrOK, sirqOK bool) {
	changed := false
	if intrOK {
		changed = c.intr.update() || changed
	}
	if sirqOK {
		changed = c.sirq.update() || changed
	}
	if changed || c.cpuList == nil {
		seen := map[int]bool{}
		var cpus []int
		for _, cpu := range append(append([]int(nil), c.intr.cpus...), c.sirq.cpus...) {
			if !seen[cpu] {
				seen[cpu] = true
				cpus = append(cpus, cpu)
			}
		}
		slices.Sort(cpus)
		c.cpuList = cpuInstances(cpus)
	}
	b.SetInDom(indomIRQCPUs, c.cpuList)
}

func (c *interruptsCollector) read(f *irqFile) error {
	var err error
	if f.buf, err = f.file.Read(f.buf); err != nil {
		return err
	}
	if f.same = f.memo.Same(f.buf); f.same {
		return nil // the table holds this very text's values
	}
	if err := kernel.ParseIRQTable(f.buf, &f.table); err != nil {
		f.memo.Forget()
		return fmt.Errorf("%s: %w", f.file.Path, err)
	}
	f.memo.Keep(f.buf)
	return nil
}

// publish sets each source's total and per-CPU counts, and each CPU's
// sum over the sources.
func (f *irqFile) publish(b *cache.Builder, total, perCPU, cpuSum cache.Desc) {
	f.sums = slices.Grow(f.sums[:0], len(f.cpus))[:len(f.cpus)]
	clear(f.sums)
	cpuSlot, totalSlot := b.U64Slot(perCPU.ID), b.U64Slot(total.ID)
	for i := range f.names {
		var sum uint64
		for j, v := range f.table.Line(i) {
			sum += v
			f.sums[j] += v
			b.SetSlot(cpuSlot, f.cpuIDs[i*len(f.cpus)+j], uint64(uint32(v)))
		}
		b.SetSlot(totalSlot, f.lineIDs[i], sum)
	}
	for j, cpu := range f.cpus {
		b.SetU64(cpuSum.ID, uint32(cpu), f.sums[j])
	}
}

// update rebuilds the instances when the sources or CPUs changed, and
// reports whether it did.
func (f *irqFile) update() bool {
	if f.lines != nil && slices.Equal(f.cpus, f.table.CPUs) && sameNames(f.names, f.table.Names) &&
		sameNames(f.texts, f.table.Texts) {
		return false
	}
	f.cpus = append(f.cpus[:0], f.table.CPUs...)
	f.names, f.texts = f.names[:0], f.texts[:0]
	f.lineIDs, f.cpuIDs = f.lineIDs[:0], f.cpuIDs[:0]
	lines := make([]cache.Instance, 0, len(f.table.Names))
	perCPU := make([]cache.Instance, 0, len(f.table.Names)*len(f.cpus))
	var text []byte // every per-CPU name, one after the other
	var ends []int  // where each ends in text
	for i, n := range f.table.Names {
		name, desc := string(n), string(f.table.Texts[i])
		f.names, f.texts = append(f.names, name), append(f.texts, desc)
		id := f.lineMap.ID(name)
		f.lineIDs = append(f.lineIDs, id)
		lines = append(lines, cache.Instance{ID: id, Name: name, Labels: f.sourceLabels(name, desc)})
		// One label slice for all of a source's CPUs: cpu and the
		// source's name are derived from the instance name when asked.
		shared := f.sharedLabels(desc)
		for _, cpu := range f.cpus {
			start := len(text)
			text = strconv.AppendInt(append(append(text, name...), "::cpu"...), int64(cpu), 10)
			ends = append(ends, len(text))
			pid := perCPUID(id, cpu)
			if f.cpuMap != nil {
				pid = f.cpuMap.ID(string(text[start:]))
			}
			f.cpuIDs = append(f.cpuIDs, pid)
			perCPU = append(perCPU, cache.Instance{ID: pid, Labels: shared})
		}
	}
	nameSlices(perCPU, string(text), ends)
	f.lines, f.perCPU = cache.NewInstances(lines), cache.NewInstances(perCPU)
	return true
}

// nameSlices names list[i] text[ends[i-1]:ends[i]]: a large host's
// hundreds of thousands of per-CPU names are one string, so the garbage
// collector marks one object instead of one per name.
func nameSlices(list []cache.Instance, text string, ends []int) {
	start := 0
	for i, end := range ends {
		list[i].Name = text[start:end]
		start = end
	}
}

// sourceLabels are the labels pmdalinux gives a source's instance: for an
// interrupt its label and its description with the spaces collapsed
// ("IO-APIC 5-edge ACPI:Ged"); a soft interrupt has none.
func (f *irqFile) sourceLabels(name, text string) []cache.Label {
	if f.softirq {
		return nil
	}
	labels := []cache.Label{cache.StringLabel("irq", name)}
	if text != "" {
		labels = append(labels, cache.StringLabel("irqtext", strings.Join(strings.Fields(text), " ")))
	}
	return labels
}

// sharedLabels are the labels stored with each of a source's per-CPU
// instances: an interrupt's description, shared by all its CPUs.
func (f *irqFile) sharedLabels(text string) []cache.Label {
	if f.softirq || text == "" {
		return nil
	}
	return []cache.Label{cache.StringLabel("irqtext", strings.Join(strings.Fields(text), " "))}
}

// perCPUID is the instance id of a source's count on a CPU: the source's
// persistent id and the CPU number, so that no id map of sources x CPUs
// (hundreds of thousands on a large host) is kept or saved. CPU numbers
// stay below 8192, the most Linux supports.
func perCPUID(source uint32, cpu int) uint32 { return source<<13 | uint32(cpu)&(1<<13-1) }

// perCPULabels derives a per-CPU instance's cpu label (a number) and its
// source's label (key: irq or softirq) from its name, "LOC::cpu7".
func perCPULabels(key string) func(x cache.Instance) []cache.Label {
	return func(x cache.Instance) []cache.Label {
		source, cpu, ok := strings.Cut(x.Name, "::cpu")
		if !ok {
			return nil
		}
		return []cache.Label{{Name: "cpu", Value: cpu}, cache.StringLabel(key, source)}
	}
}

// cpuInstances names CPUs "cpuN" with id N, as pmdalinux's CPU domain.
func cpuInstances(cpus []int) *cache.Instances {
	list := make([]cache.Instance, len(cpus))
	for i, cpu := range cpus {
		list[i] = cache.Instance{ID: uint32(cpu), Name: "cpu" + strconv.Itoa(cpu)}
	}
	return cache.NewInstances(list)
}

func sameNames(have []string, now [][]byte) bool {
	if len(have) != len(now) {
		return false
	}
	for i := range have {
		if have[i] != string(now[i]) {
			return false
		}
	}
	return true
}
