package standin

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lostDomain is an internal instance domain that mirrors a pmdalinux
// domain another internal domain holds, with the twins it takes along.
type lostDomain struct {
	lost, holder string // internal domains, as problems name them
	linux        int    // the pmdalinux serial both claim
	twins        []string
}

// expectedLosses is what hostcache's schema is found to hold. Every
// collector owns its instance domains (collector/clusters.go), so several
// internal domains stand for pmdalinux's one CPU domain 60.0 and one NUMA
// node domain 60.19, each with pmdalinux's instance names and ids. A wire
// domain must name one internal domain, whose instances the instance
// PDUs list; the domain with the most twins holds it and the others'
// twins answer under hostcache's names until the collectors share one
// domain. No twin differs from pmdalinux in type, semantics, units or
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
		"hinv.map.cpu_num"}},
	// The CPUs of /proc/interrupts and /proc/softirqs: the per-CPU sums.
	{"17 (interrupt cpus)", "1 (cpu)", 0, []string{"kernel.percpu.intr", "kernel.percpu.sirq"}},
	// The CPUs of /proc/net/softnet_stat.
	{"19 (softnet cpus)", "1 (cpu)", 0, []string{
		"network.softnet.percpu.cpu_collision", "network.softnet.percpu.dropped",
		"network.softnet.percpu.flow_limit_count", "network.softnet.percpu.processed",
		"network.softnet.percpu.received_rps", "network.softnet.percpu.time_squeeze"}},
}

func TestProblemsAreTheSharedDomains(t *testing.T) {
	_, x, problems := hostcacheIdentity(t)
	kinds := map[Kind]int{}
	var got []string
	for _, p := range problems {
		t.Log(p)
		kinds[p.Kind]++
		got = append(got, string(p.Kind)+" "+p.Name)
	}
	t.Logf("problems by kind: %v", kinds)
	var want []string
	for _, l := range expectedLosses {
		want = append(want, fmt.Sprintf("%s %s", KindInDomShared, l.lost))
		for _, n := range l.twins {
			want = append(want, fmt.Sprintf("%s %s%s", KindInDom, prefix, n))
			if x.IsTwin(prefix + n) {
				t.Errorf("%s%s: demoted, yet a twin", prefix, n)
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
	_, _, problems := hostcacheIdentity(t)
	for _, l := range expectedLosses {
		want := Problem{Kind: KindInDomShared, Name: l.lost}
		i := slices.IndexFunc(problems, func(p Problem) bool { return p.Kind == want.Kind && p.Name == want.Name })
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
