package collector

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// pmdalinuxDesc is one metric as `pminfo -d NAME` shows it against pmdalinux
// (PCP 6.0.3, kernel 6.18), with the PMID (cluster.item, no domain) we give
// hostcache.NAME. An empty pmid marks a pmdalinux metric we deliberately do
// not export (no source on modern kernels; see meminfo.go).
type pmdalinuxDesc struct {
	name, pmid, typ, sem, units, indom string
}

// pmdalinuxDescs is the verified truth, transcribed from `pminfo -d` output
// (kernel.cpu.util.* from the derived metrics of /etc/pcp/derived/cpu-util.conf).
// The PMIDs are our ABI: a change here breaks archives and clients.
var baseDescs = []pmdalinuxDesc{
	{"hinv.ncpu", "1.46", "32-bit unsigned int", "discrete", "none", "PM_INDOM_NULL"},
	{"kernel.all.cpu.user", "1.0", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.nice", "1.1", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.sys", "1.2", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.idle", "1.3", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.intr", "1.4", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.wait.total", "1.5", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.irq.hard", "1.6", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.irq.soft", "1.7", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.steal", "1.8", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.guest", "1.9", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.guest_nice", "1.10", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.vuser", "1.11", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.all.cpu.vnice", "1.12", "64-bit unsigned int", "counter", "millisec", "PM_INDOM_NULL"},
	{"kernel.percpu.cpu.user", "1.20", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.nice", "1.21", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.sys", "1.22", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.idle", "1.23", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.intr", "1.24", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.wait.total", "1.25", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.irq.hard", "1.26", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.irq.soft", "1.27", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.steal", "1.28", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.guest", "1.29", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.guest_nice", "1.30", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.vuser", "1.31", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.percpu.cpu.vnice", "1.32", "64-bit unsigned int", "counter", "millisec", "60.0"},
	{"kernel.all.pswitch", "1.40", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"kernel.all.sysfork", "1.41", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"kernel.all.intr", "1.42", "64-bit unsigned int", "counter", "count", "PM_INDOM_NULL"},
	{"kernel.all.running", "1.43", "64-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.blocked", "1.44", "64-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.boottime", "1.45", "64-bit int", "discrete", "sec", "PM_INDOM_NULL"},
	{"kernel.all.hz", "1.47", "32-bit unsigned int", "discrete", "count / sec", "PM_INDOM_NULL"},
	{"kernel.cpu.util.user", "1.60", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.nice", "1.61", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.sys", "1.62", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.idle", "1.63", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.intr", "1.64", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.wait", "1.65", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.cpu.util.steal", "1.66", "double", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.load", "3.0", "float", "instant", "none", "60.2"},
	{"kernel.all.lastpid", "3.1", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.runnable", "3.2", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.nprocs", "3.3", "32-bit unsigned int", "instant", "none", "PM_INDOM_NULL"},
	{"kernel.all.uptime", "4.0", "double", "instant", "sec", "PM_INDOM_NULL"},
	{"kernel.all.idletime", "4.1", "double", "instant", "sec", "PM_INDOM_NULL"},
	{"mem.physmem", "2.0", "64-bit unsigned int", "discrete", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.used", "2.1", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.free", "2.2", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.shared", "2.3", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.bufmem", "2.4", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.cached", "2.5", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.other", "2.12", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.swapCached", "2.13", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.active", "2.14", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.inactive", "2.15", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.highTotal", "2.16", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.highFree", "2.17", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.lowTotal", "2.18", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.lowFree", "2.19", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.swapTotal", "2.20", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.swapFree", "2.21", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.dirty", "2.22", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.writeback", "2.23", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.mapped", "2.24", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.slab", "2.25", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.committed_AS", "2.26", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.pageTables", "2.27", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.reverseMaps", "2.28", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.cache_clean", "2.29", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.anonpages", "2.30", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.commitLimit", "2.31", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.bounce", "2.32", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.NFS_Unstable", "2.33", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.slabReclaimable", "2.34", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.slabUnreclaimable", "2.35", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.active_anon", "2.36", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.inactive_anon", "2.37", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.active_file", "2.38", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.inactive_file", "2.39", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.unevictable", "2.40", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.mlocked", "2.41", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.shmem", "2.42", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.kernelStack", "2.43", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.hugepagesTotal", "2.44", "64-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"mem.util.hugepagesFree", "2.45", "64-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"mem.util.hugepagesRsvd", "2.46", "64-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"mem.util.hugepagesSurp", "2.47", "64-bit unsigned int", "instant", "count", "PM_INDOM_NULL"},
	{"mem.util.directMap4k", "2.48", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.directMap2M", "2.49", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.vmallocTotal", "2.50", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.vmallocUsed", "2.51", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.vmallocChunk", "2.52", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.mmap_copy", "2.53", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.quicklists", "2.54", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.corrupthardware", "2.55", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.anonhugepages", "2.56", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.directMap1G", "2.57", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.available", "2.58", "64-bit unsigned int", "instant", "Kbyte", "PM_INDOM_NULL"},
	{"mem.util.hugepagesTotalBytes", "2.60", "64-bit unsigned int", "instant", "byte", "PM_INDOM_NULL"},
	{"mem.util.hugepagesFreeBytes", "2.61", "64-bit unsigned int", "instant", "byte", "PM_INDOM_NULL"},
	{"mem.util.hugepagesRsvdBytes", "2.62", "64-bit unsigned int", "instant", "byte", "PM_INDOM_NULL"},
	{"mem.util.hugepagesSurpBytes", "2.63", "64-bit unsigned int", "instant", "byte", "PM_INDOM_NULL"},
}

// The vocabulary of pminfo -d, mapped to ours.
var (
	pminfoTypes = map[string]cache.Type{
		"32-bit unsigned int": cache.TypeU32, "64-bit unsigned int": cache.TypeU64,
		"64-bit int": cache.TypeI64, "float": cache.TypeFloat, "double": cache.TypeDouble,
		"32-bit int": cache.TypeI32, "string": cache.TypeString,
	}
	pminfoSems = map[string]cache.Sem{
		"counter": cache.SemCounter, "instant": cache.SemInstant, "discrete": cache.SemDiscrete,
	}
	// pmdalinux's instance domains (60.N) and ours.
	pminfoInDoms = map[string]cache.InDomID{
		"PM_INDOM_NULL": cache.InDomNone, "60.0": indomCPU, "60.2": indomLoadavg,
		"60.1": indomDisk, "60.10": indomPartitions, "60.24": indomDM, "60.25": indomMD, "60.3": indomInterface,
		"60.5": indomFilesys, "60.6": indomSwapdev, "60.37": indomPressure,
		// hinv.cpu.* share pmdalinux's CPU domain; ours are the cpuinfo
		// collector's own, with the same instances.
		"60.0 (cpuinfo)": indomCPUInfo, "60.19": indomNode, "60.0 (cpusys)": indomCPUSys,
		"60.4": indomIRQ, "60.40": indomIRQCPU, "60.36": indomSoftirq, "60.41": indomSoftirqCPU, "60.0 (interrupts)": indomIRQCPUs,
		"60.19 (numa)": indomNUMA, "60.0 (softnet)": indomSoftnetCPU,
		"60.31": indomBuddy, "60.23": indomICMPType, "60.32": indomZone, "60.33": indomZoneProt,
		"60.17": indomNetAddr, "60.42": indomWWID,
		"60.7": indomNFSClient, "60.8": indomNFS3, "60.14": indomNFS4Client, "60.15": indomNFS4Server,
		"60.38": indomZram, "60.12": indomSlab, "60.18": indomTmpfs, "60.35": indomTTY,
		"60.39": indomFCHost, "60.34": indomTape,
		"60.28": indomIPCShm, "60.29": indomIPCMsg, "60.30": indomIPCSem,
		"60.11": indomSCSI, "60.19 (extfrag)": indomExtfrag,
	}
	// The units pmval/pmrep give the rate of a counter with these units.
	// Time counters' rates are dimensionless; others gain "/ sec".
	rateUnits = map[string]string{"millisec": "none", "microsec": "none", "nanosec": "none", "sec": "none", "none": "/ sec",
		"count": "count / sec", "byte": "byte / sec", "Kbyte": "Kbyte / sec", "Mbyte": "Mbyte / sec"}
)

// registeredSources builds every registered collector on the fixture tree.
func registeredSources(t *testing.T) []cache.Source {
	t.Helper()
	var cs []engine.Collector
	for _, reg := range Registry() {
		c, err := reg.Factory(engine.Env{Proc: filepath.Join(testdataDir, "proc-t0"), Sys: filepath.Join(testdataDir, "sys-t0")})
		if err != nil {
			t.Fatalf("%s: %v", reg.Name, err)
		}
		if c.Name() != reg.Name {
			t.Errorf("collector registered as %s calls itself %s", reg.Name, c.Name())
		}
		cs = append(cs, c)
	}
	// The engine adds each source's rates, derived figures and peaks.
	out := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{}).Sources()[1:]
	if _, err := cache.NewSchema(out...); err != nil {
		t.Fatalf("the registered sources do not make a schema: %v", err)
	}
	return out
}

// pmdalinuxDescs is every verified table: one per area, each in its own file.
var pmdalinuxDescs = slices.Concat(baseDescs, diskDescs, networkDescs, hostDescs, moreDescs, nfsDescs,
	mptcpDescs, tcpconnDescs, slabinfoDescs, ttyDescs, tmpfsDescs, miscDescs, ipcObjectsDescs, mapsDescs)

// pminfoUnits reads units as pminfo prints them: "Kbyte", "byte / sec",
// "count / sec", "millisec", "none", ...
func pminfoUnits(s string) (cache.Units, bool) {
	if rest, ok := strings.CutPrefix(s, "/ "); ok {
		s = "none / " + rest // a rate of nothing counted: "/ microsec", MHz
	}
	num, den, per := strings.Cut(s, " / ")
	space := map[string]int{"byte": cache.SpaceByte, "Kbyte": cache.SpaceKByte, "Mbyte": cache.SpaceMByte}
	times := map[string]int{"nanosec": cache.TimeNSec, "microsec": cache.TimeUSec, "millisec": cache.TimeMSec, "sec": cache.TimeSec}
	var dimS, dimT, dimC, scS, scT int
	switch {
	case num == "none":
	case num == "count":
		dimC = 1
	default:
		if v, ok := space[num]; ok {
			dimS, scS = 1, v
		} else if v, ok := times[num]; ok {
			dimT, scT = 1, v
		} else {
			return 0, false
		}
	}
	if per {
		v, ok := times[den]
		switch {
		case den == "count" && dimC == 0:
			dimC = -1 // "millisec / count", "Kbyte / count": iostat figures
		case !ok || dimT != 0:
			return 0, false
		default:
			dimT, scT = -1, v
		}
	}
	return cache.MakeUnits(dimS, dimT, dimC, scS, scT, 0), true
}

func pmdalinuxByName() map[string]pmdalinuxDesc {
	table := map[string]pmdalinuxDesc{}
	for _, w := range pmdalinuxDescs {
		table[w.name] = w
	}
	return table
}

func TestDescriptorsMatchPmdalinux(t *testing.T) {
	table := pmdalinuxByName()
	exported := map[string]bool{}
	for _, src := range registeredSources(t) {
		for _, d := range src.Metrics {
			name, ok := strings.CutPrefix(d.Name, engine.Prefix)
			if !ok {
				t.Errorf("%s: not below %s", d.Name, engine.Prefix)
				continue
			}
			if strings.HasPrefix(name, "rate.") || strings.HasPrefix(name, "max.") || strings.HasPrefix(name, "min.") {
				continue // the engine's: TestEveryCounterHasARate and engine's tests
			}
			if strings.HasPrefix(name, "mmv.") {
				continue // the MMV files' and the catalog's own, no twin of pmdalinux's: mmv_*_test.go
			}
			exported[name] = true
			w, ok := table[name]
			switch {
			case !ok:
				t.Errorf("%s: not in the verified pmdalinux table", name)
				continue
			case w.pmid == "":
				t.Errorf("%s: exported, but listed as having no source", name)
				continue
			}
			checkDesc(t, d, w)
		}
	}
	for _, w := range pmdalinuxDescs {
		if w.pmid != "" && !exported[w.name] {
			t.Errorf("%s: in the table but not exported", w.name)
		}
	}
}

func checkDesc(t *testing.T, d cache.Desc, w pmdalinuxDesc) {
	t.Helper()
	if d.ID.String() != w.pmid {
		t.Errorf("%s: PMID %s, want %s", w.name, d.ID, w.pmid)
	}
	if d.ID.Item() >= engine.RateItemOffset {
		t.Errorf("%s: item %d collides with the rate items", w.name, d.ID.Item())
	}
	if d.Type != pminfoTypes[w.typ] {
		t.Errorf("%s: type %s, want %s", w.name, d.Type, w.typ)
	}
	if d.Sem != pminfoSems[w.sem] {
		t.Errorf("%s: semantics %s, want %s", w.name, d.Sem, w.sem)
	}
	if u, ok := pminfoUnits(w.units); !ok || d.Units != u {
		t.Errorf("%s: units %#x, want %s", w.name, uint32(d.Units), w.units)
	}
	if d.InDom != pminfoInDoms[w.indom] {
		t.Errorf("%s: indom %d, want ours for pmdalinux's %s", w.name, d.InDom, w.indom)
	}
}

// Every counter has its hostcache.rate twin next to it, and every rate
// metric is the twin of a counter of the same source.
func TestEveryCounterHasARate(t *testing.T) {
	table := pmdalinuxByName()
	for _, src := range registeredSources(t) {
		byID := map[cache.MetricID]cache.Desc{}
		for _, d := range src.Metrics {
			byID[d.ID] = d
		}
		for _, d := range src.Metrics {
			name := strings.TrimPrefix(d.Name, engine.Prefix)
			if strings.HasPrefix(name, "rate.") {
				counter, ok := byID[cache.NewMetricID(d.ID.Cluster(), d.ID.Item()-engine.RateItemOffset)]
				if d.ID.Item() < engine.RateItemOffset || !ok || counter.Sem != cache.SemCounter ||
					engine.Prefix+"rate."+strings.TrimPrefix(counter.Name, engine.Prefix) != d.Name {
					t.Errorf("%s (%s): not the rate of a counter", d.Name, d.ID)
				}
				continue
			}
			if d.Sem != cache.SemCounter || strings.HasPrefix(name, "mmv.") {
				continue // MMV counters' rates: TestMMVControlMetrics and mmv_*_test.go
			}
			r, ok := byID[engine.RateID(d.ID)]
			if !ok {
				t.Errorf("%s: counter without a rate twin", name)
				continue
			}
			wantUnits, known := rateUnits[table[name].units]
			u, _ := pminfoUnits(wantUnits)
			if r.Name != engine.Prefix+"rate."+name || r.Type != cache.TypeDouble || r.Sem != cache.SemInstant ||
				r.InDom != d.InDom || !known || r.Units != u {
				t.Errorf("%s: rate twin %+v, want double, instant, %q, same indom", name, r, wantUnits)
			}
		}
	}
}
