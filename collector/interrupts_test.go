package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Fixtures proc-t0 and proc-t1: /proc/interrupts and softirqs of a
// 2-CPU host; between them IRQ 31 counts 200 on cpu0 and 400 on cpu1,
// LOC 1000 on each, IRQ 35 appears, ERR goes from 3 to 5, and TIMER
// counts 100 on each CPU.
func TestInterruptValues(t *testing.T) {
	h := newHarness(t, NewInterruptsCollector, "proc-t0")
	h.MustSample(t0)
	irq := func(name string) uint32 { return h.hostInstanceID(indomIRQ, name) }
	per := func(name string) uint32 { return h.hostInstanceID(indomIRQCPU, name) }
	h.WantU64("kernel.all.interrupts.total", irq("31"), 3275)
	h.WantU64("kernel.all.interrupts.total", irq("LOC"), 1938218+1940807)
	h.WantU64("kernel.percpu.interrupts", per("LOC::cpu1"), 1940807)
	h.WantU64("kernel.all.interrupts.errors", cache.InstNone, 3)
	h.WantU64("kernel.all.interrupts.missed", cache.InstNone, 0)
	for _, single := range []string{"ERR", "MIS"} {
		for _, x := range h.hostInstances(indomIRQ) {
			if x.Name == single {
				t.Errorf("%s is a source instance; it is a single count", single)
			}
		}
	}
	// Every source by its own label, in file order (the first lines' names
	// once came out garbled: they pointed into a buffer re-read since).
	var names []string
	for _, x := range h.hostInstances(indomIRQ) {
		names = append(names, x.Name)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "24 25 26 28 29 30 31 32 33 34 35 36") {
		t.Errorf("interrupt sources: %s", got)
	}
	sirq := func(name string) uint32 { return h.hostInstanceID(indomSoftirq, name) }
	h.WantU64("kernel.all.softirqs.total", sirq("TIMER"), 208718+205404)
	h.WantU64("kernel.percpu.softirqs", h.hostInstanceID(indomSoftirqCPU, "BLOCK::cpu1"), 560724)
	// Each CPU's sums are its column's.
	h.WantU64("kernel.percpu.sirq", 1, 205404+459754+560724+5+394730+536+397948)
	if got := len(h.hostInstances(indomIRQCPU)); got != 2*len(h.hostInstances(indomIRQ)) {
		t.Errorf("%d per-CPU instances for %d sources on 2 CPUs", got, len(h.hostInstances(indomIRQ)))
	}

	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantFloat("rate.kernel.all.interrupts.total", irq("31"), 300) // 600 in 2 s
	h.WantFloat("rate.kernel.percpu.interrupts", per("LOC::cpu0"), 500)
	h.WantFloat("rate.kernel.all.interrupts.errors", cache.InstNone, 1)
	h.WantFloat("rate.kernel.all.softirqs.total", sirq("TIMER"), 100)
	h.WantU64("kernel.all.interrupts.total", irq("35"), 7)
	h.WantU64("kernel.percpu.interrupts", per("35::cpu0"), 7)
}

// pmdalinux's instance labels: irq and irqtext on interrupt sources, with
// cpu on their per-CPU instances; softirq and cpu on soft interrupts'.
func TestInterruptLabels(t *testing.T) {
	h := newHarness(t, NewInterruptsCollector, "proc-t0")
	h.MustSample(t0)
	want := map[cache.InDomID]map[string]map[string]string{
		indomIRQ:        {"31": {"irq": `"31"`, "irqtext": `"PCI-MSIX-0000:00:01.0 3-edge virtio0-stats"`}},
		indomIRQCPU:     {"LOC::cpu1": {"cpu": "1", "irq": `"LOC"`, "irqtext": `"Local timer interrupts"`}},
		indomSoftirqCPU: {"HI::cpu0": {"cpu": "0", "softirq": `"HI"`}},
	}
	descs := map[cache.InDomID]cache.InDomDesc{}
	for _, d := range h.C.Source().InDoms {
		descs[d.ID] = d
	}
	for indom, insts := range want {
		d := descs[indom]
		for _, x := range h.hostInstances(indom) {
			labels, ok := insts[x.Name]
			if !ok {
				continue
			}
			got := map[string]string{}
			for _, l := range d.InstanceLabels(x) {
				got[l.Name] = l.Value
			}
			for k, v := range labels {
				if got[k] != v {
					t.Errorf("%s label %s = %s, want %s", x.Name, k, got[k], v)
				}
			}
			delete(insts, x.Name)
		}
		for name := range insts {
			t.Errorf("indom %d has no instance %s", indom, name)
		}
	}
}

// Without /proc/softirqs the interrupts still have values.
func TestInterruptsWithoutSoftirqs(t *testing.T) {
	h := newHarness(t, NewInterruptsCollector, "proc-t0")
	os.Remove(filepath.Join(h.Proc, "softirqs"))
	if err := h.Sample(t0); err == nil {
		t.Error("a missing softirqs is not reported")
	}
	h.WantU64("kernel.all.interrupts.errors", cache.InstNone, 3)
	h.WantAbsent("kernel.percpu.sirq", 0)
}

func TestParseIRQTable(t *testing.T) {
	var tab kernel.IRQTable
	in := "           CPU0       CPU2\n  0:         44          0   IO-APIC   2-edge      timer\n" +
		"NMI:          1          2   Non-maskable interrupts\n  9:          5\nERR:          7\nbad line\n"
	if err := kernel.ParseIRQTable([]byte(in), &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.CPUs) != 2 || tab.CPUs[1] != 2 {
		t.Errorf("CPUs %v", tab.CPUs)
	}
	if len(tab.Names) != 2 || string(tab.Names[1]) != "NMI" || tab.Line(1)[1] != 2 || string(tab.Texts[0]) != "IO-APIC   2-edge      timer" {
		t.Errorf("lines %q %v", tab.Names, tab.Counts)
	}
	// "9: 5" has one count on a 2-CPU host: a single count like ERR.
	if len(tab.Single) != 2 || string(tab.Single[1].Name) != "ERR" || tab.Single[1].Count != 7 {
		t.Errorf("single %+v", tab.Single)
	}
	if err := kernel.ParseIRQTable([]byte("  0: 1 2\n"), &tab); err == nil {
		t.Error("a table without a header is accepted")
	}
	// A host of 1000 IRQs or more pads the labels to four places: " ERR:"
	// and " MIS:" are indented, pmdalinux lists them as interrupts (its
	// sscanf wants "ERR:" first), and so does the table, ERR's one count
	// in the first column; the count of errors is still read.
	wide := "            CPU0       CPU1       CPU2\n   0:         44          0          0   IO-APIC   2-edge      timer\n" +
		" NMI:          1          2          3   Non-maskable interrupts\n ERR:          7\n MIS:          0\n"
	if err := kernel.ParseIRQTable([]byte(wide), &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Names) != 4 || string(tab.Names[2]) != "ERR" || string(tab.Names[3]) != "MIS" ||
		tab.Line(2)[0] != 7 || tab.Line(2)[1] != 0 || tab.Line(2)[2] != 0 {
		t.Errorf("indented ERR and MIS: lines %q, counts %v", tab.Names, tab.Counts)
	}
	if len(tab.Single) != 2 || string(tab.Single[0].Name) != "ERR" || tab.Single[0].Count != 7 {
		t.Errorf("indented ERR's count: %+v", tab.Single)
	}
}
