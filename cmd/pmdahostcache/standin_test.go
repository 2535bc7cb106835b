package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// hostcachePrefix begins every hostcache name.
const hostcachePrefix = "hostcache."

// hostcacheSchema builds hostcache's full schema as the agent and
// tools/genmetrics do: every registered collector on the fixture tree, with
// the engine's rates, derived figures, peaks and controls. What the
// collectors declare does not depend on the tree.
func hostcacheSchema(t *testing.T) *cache.Schema {
	t.Helper()
	env := engine.Env{Proc: filepath.Join("..", "..", "testdata", "proc-t0"), Sys: filepath.Join("..", "..", "testdata", "sys-t0")}
	var cs []engine.Collector
	for _, reg := range collector.Registry() {
		c, err := reg.Factory(env)
		if err != nil {
			t.Fatalf("collector %s: %v", reg.Name, err)
		}
		cs = append(cs, c)
	}
	runner := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second})
	s, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// hostcacheNumbering builds the stand-in's Numbering of the full schema.
func hostcacheNumbering(t *testing.T) (*cache.Schema, *standin.Numbering, []standin.Problem) {
	t.Helper()
	s := hostcacheSchema(t)
	x, problems, err := standin.New(standin.Linux(), s.Descs(), s.InDoms())
	if err != nil {
		t.Fatal(err)
	}
	return s, x, problems
}

func linuxByName() map[string]standin.Metric {
	out := map[string]standin.Metric{}
	for _, m := range standin.LinuxTable() {
		out[m.Name] = m
	}
	return out
}

// Domain 60 has pmdalinux's names only: every twin answers at its own
// pmdalinux PMID, and no other metric has a PMID there (hostcache's
// names answer in hostcache's own domain, on the socket).
func TestOnlyTwinsHaveDomain60PMIDs(t *testing.T) {
	s, x, _ := hostcacheNumbering(t)
	seen := map[uint32]string{}
	for _, d := range s.Descs() {
		wire := x.PMID(d.ID)
		if !x.IsTwin(d.Name) {
			if wire != standin.PMIDNull {
				t.Errorf("%s: not a twin, yet answers as %#x", d.Name, wire)
			}
			continue
		}
		if wire>>22 != standin.Linux().Domain {
			t.Errorf("%s: wire PMID %#x is in domain %d", d.Name, wire, wire>>22)
		}
		if other, dup := seen[wire]; dup {
			t.Errorf("%s and %s share wire PMID %#x", d.Name, other, wire)
		}
		seen[wire] = d.Name
		if back, ok := x.Metric(wire); !ok || back != d.ID {
			t.Errorf("%s: %s -> %#x -> %s, %v", d.Name, d.ID, wire, back, ok)
		}
		if _, ok := x.Metric(standin.Linux().WirePMID(d.ID.Cluster()+standin.Shift, d.ID.Item())); ok {
			t.Errorf("%s answers past pmdalinux's clusters too", d.Name)
		}
	}
	if x.PMID(cache.NewMetricID(4000, 1)) != standin.PMIDNull {
		t.Error("an id the schema does not hold has a wire PMID")
	}
	if _, ok := x.Metric(standin.Linux().WirePMID(4000, 1)); ok {
		t.Error("60.4000.1 names a metric")
	}
	if _, ok := x.Metric(s.Descs()[0].ID.Cluster()<<10 | s.Descs()[0].ID.Item()); ok {
		t.Error("a PMID of domain 0 names a metric")
	}
}

func TestTwinsAnswerAsPmdalinux(t *testing.T) {
	s, x, problems := hostcacheNumbering(t)
	linux := linuxByName()
	byName := 0
	for _, d := range s.Descs() {
		wire, name := x.PMID(d.ID), x.WireName(d.Name)
		m, named := linux[strings.TrimPrefix(d.Name, hostcachePrefix)]
		if named {
			byName++
		}
		if !x.IsTwin(d.Name) {
			if wire != standin.PMIDNull || name != d.Name {
				t.Errorf("%s (%s): not a twin, yet answers as %#x %s", d.Name, d.ID, wire, name)
			}
			continue
		}
		if !named || wire != standin.Linux().PMID(m) || name != m.Name {
			t.Errorf("%s: twin answers as %#x %s, pmdalinux's is %#x %s", d.Name, wire, name, standin.Linux().PMID(m), m.Name)
		}
		if d.Type != m.Type || d.Sem != m.Sem || d.Units != m.Units || x.InDom(d.InDom) != wireInDomOf(m) {
			t.Errorf("%s: twin's descriptor %v/%v/%#x/%#x, pmdalinux's %v/%v/%#x/%#x", d.Name,
				d.Type, d.Sem, uint32(d.Units), x.InDom(d.InDom), m.Type, m.Sem, uint32(m.Units), wireInDomOf(m))
		}
	}
	demoted := 0
	for _, p := range problems {
		if p.Kind != standin.KindInDomShared {
			demoted++
		}
	}
	t.Logf("%d pmdalinux metrics, %d hostcache metrics named after one, %d twins, %d named ones demoted",
		len(linux), byName, x.Twins(), demoted)
	if x.Twins()+demoted != byName {
		t.Errorf("%d twins and %d demoted, but %d metrics are named after pmdalinux's", x.Twins(), demoted, byName)
	}
}

func wireInDomOf(m standin.Metric) uint32 {
	if m.InDom == cache.InDomNone {
		return standin.InDomNull
	}
	return standin.Linux().WireInDom(m.InDom)
}

// Every instance domain with twins answers as a pmdalinux domain, and
// back; the others have none in domain 60.
func TestInstanceDomainsRoundTrip(t *testing.T) {
	s, x, _ := hostcacheNumbering(t)
	seen := map[uint32]cache.InDomID{}
	withTwins := map[cache.InDomID]bool{}
	for _, d := range s.Descs() {
		if x.IsTwin(d.Name) {
			withTwins[d.InDom] = true
		}
	}
	for _, in := range s.InDoms() {
		wire := x.InDom(in.ID)
		if !withTwins[in.ID] {
			if wire != standin.InDomNull {
				t.Errorf("domain %d (%s) has no twins, yet answers as %#x", in.ID, in.Name, wire)
			}
			continue
		}
		if wire>>22 != standin.Linux().Domain {
			t.Errorf("domain %d (%s): wire %#x is in domain %d", in.ID, in.Name, wire, wire>>22)
		}
		if holder, aliased := x.Holder(in.ID); aliased {
			if back, ok := x.InDomOf(wire); !ok || back != holder || x.InDom(holder) != wire {
				t.Errorf("alias %d -> %#x -> %d, %v; its holder is %d", in.ID, wire, back, ok, holder)
			}
			continue
		}
		if other, dup := seen[wire]; dup {
			t.Errorf("domains %d and %d share wire domain %#x", in.ID, other, wire)
		}
		seen[wire] = in.ID
		if back, ok := x.InDomOf(wire); !ok || back != in.ID {
			t.Errorf("domain %d -> %#x -> %d, %v", in.ID, wire, back, ok)
		}
	}
	if x.InDom(cache.InDomNone) != standin.InDomNull {
		t.Errorf("no instance domain answers as %#x", x.InDom(cache.InDomNone))
	}
	if _, ok := x.InDomOf(standin.InDomNull); ok {
		t.Error("PM_INDOM_NULL names an internal domain")
	}
}

func TestLookupsDoNotAllocate(t *testing.T) {
	s, x, _ := hostcacheNumbering(t)
	d := s.Descs()[len(s.Descs())/2]
	wire, wireInDom := x.PMID(d.ID), x.InDom(1)
	allocs := testing.AllocsPerRun(100, func() {
		_ = x.PMID(d.ID)
		_, _ = x.Metric(wire)
		_ = x.InDom(1)
		_, _ = x.InDomOf(wireInDom)
		_ = x.WireName("hostcache.kernel.all.load")
		_ = x.WireName(d.Name)
	})
	if allocs != 0 {
		t.Errorf("lookups allocate %v times", allocs)
	}
}

// lostDomain is an internal instance domain that mirrors a pmdalinux
// domain another internal domain holds, and answers as its alias, with
// its twins.
type lostDomain struct {
	lost, holder string // internal domains, as problems name them
	linux        int    // the pmdalinux serial both claim
	twins        []string
}

// expectedLosses is what hostcache's schema is found to hold. Every
// collector owns its instance domains (collector/clusters.go), so several
// internal domains stand for pmdalinux's one CPU domain 60.0 and one NUMA
// node domain 60.19, each with pmdalinux's instance names and ids. A wire
// domain names one internal domain, whose instances the instance PDUs
// list; the domain with the most twins holds it and the others answer as
// its aliases, their values limited to its instances. No twin differs from pmdalinux in type, semantics, units or
// whether it has instances: there is no entry of those kinds.
var expectedLosses = []lostDomain{
	// hinv.cpu.* from /proc/cpuinfo, read less often than the CPU times
	// of 1 (cpu) from /proc/stat; pmdalinux puts both in 60.0.
	{"10 (cpuinfo)", "1 (cpu)", 0, []string{
		"hinv.cpu.bogomips", "hinv.cpu.cache", "hinv.cpu.cache_alignment", "hinv.cpu.clock",
		"hinv.cpu.flags", "hinv.cpu.model", "hinv.cpu.model_name", "hinv.cpu.stepping", "hinv.cpu.vendor"}},
	// The per-node CPU times, on the nodes the CPU collector finds; 18
	// (numa nodes) of the NUMA collector holds 60.19 with mem.numa.*.
	{"11 (node)", "18 (numa nodes)", 19, []string{
		"kernel.pernode.cpu.guest", "kernel.pernode.cpu.guest_nice", "kernel.pernode.cpu.idle",
		"kernel.pernode.cpu.intr", "kernel.pernode.cpu.irq.hard", "kernel.pernode.cpu.irq.soft",
		"kernel.pernode.cpu.nice", "kernel.pernode.cpu.steal", "kernel.pernode.cpu.sys",
		"kernel.pernode.cpu.user", "kernel.pernode.cpu.vnice", "kernel.pernode.cpu.vuser",
		"kernel.pernode.cpu.wait.total"}},
	// The CPUs sysfs lists as present: frequency scaling, thermal
	// throttling, online, the CPU-number map; pmdalinux's are in 60.0.
	{"12 (cpusys)", "1 (cpu)", 0, []string{
		"hinv.cpu.frequency_scaling.count", "hinv.cpu.frequency_scaling.max",
		"hinv.cpu.frequency_scaling.min", "hinv.cpu.frequency_scaling.time", "hinv.cpu.online",
		"hinv.cpu.thermal_throttle.core.count", "hinv.cpu.thermal_throttle.core.time",
		"hinv.cpu.thermal_throttle.package.count", "hinv.cpu.thermal_throttle.package.time",
		"hinv.map.cpu_node", "hinv.map.cpu_num"}},
	// The CPUs of /proc/interrupts and /proc/softirqs: the per-CPU sums.
	{"17 (interrupt cpus)", "1 (cpu)", 0, []string{"kernel.percpu.intr", "kernel.percpu.sirq"}},
	// The nodes of debugfs's fragmentation index; 18 (numa nodes) holds
	// 60.19.
	{"42 (extfrag nodes)", "18 (numa nodes)", 19, []string{"sysfs.kernel.debug.extfrag_unusable"}},
	// The CPUs of /proc/net/softnet_stat.
	{"19 (softnet cpus)", "1 (cpu)", 0, []string{
		"network.softnet.percpu.cpu_collision", "network.softnet.percpu.dropped",
		"network.softnet.percpu.flow_limit_count", "network.softnet.percpu.processed",
		"network.softnet.percpu.received_rps", "network.softnet.percpu.time_squeeze"}},
}

func TestProblemsAreTheSharedDomains(t *testing.T) {
	_, x, problems := hostcacheNumbering(t)
	kinds := map[standin.Kind]int{}
	var got []string
	for _, p := range problems {
		t.Log(p)
		kinds[p.Kind]++
		got = append(got, string(p.Kind)+" "+p.Name)
	}
	t.Logf("problems by kind: %v", kinds)
	var want []string
	for _, l := range expectedLosses {
		want = append(want, fmt.Sprintf("%s %s", standin.KindInDomShared, l.lost))
		for _, n := range l.twins {
			if !x.IsTwin(hostcachePrefix + n) {
				t.Errorf("%s%s: on an alias of the held domain, yet not a twin", hostcachePrefix, n)
			}
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
}

func TestSharedDomainProblemsNameTheHolder(t *testing.T) {
	_, _, problems := hostcacheNumbering(t)
	for _, l := range expectedLosses {
		want := standin.Problem{Kind: standin.KindInDomShared, Name: l.lost}
		i := slices.IndexFunc(problems, func(p standin.Problem) bool { return p.Kind == want.Kind && p.Name == want.Name })
		if i < 0 {
			t.Errorf("no problem for %s", l.lost)
			continue
		}
		begin := fmt.Sprintf("claims 60.%d for %d twins; %s holds it", l.linux, len(l.twins), l.holder)
		if why := problems[i].Why; !strings.HasPrefix(why, begin) {
			t.Errorf("%s: %q, want it to begin %q", l.lost, why, begin)
		}
	}
}
