package collector

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/internal/linuxtable"
)

// The twin tests check each metric against its pmdalinux twin in the one
// generated table (internal/linuxtable, made by make linux-table from the
// running pmcd): type, semantics, units and instance domain. The PMIDs are
// checked by tools/genmetrics against the committed pmns.

// linuxInDoms maps our instance domains to pmdalinux's serials (domain
// 60). Several of ours share one of pmdalinux's: the hinv.cpu.*, cpusys,
// interrupts and softnet metrics are per CPU (60.0) in collectors of their
// own, and the NUMA and extfrag metrics are per node (60.19).
var linuxInDoms = map[cache.InDomID]cache.InDomID{
	cache.InDomNone: cache.InDomNone,
	indomCPU:        0, indomCPUInfo: 0, indomCPUSys: 0, indomIRQCPUs: 0, indomSoftnetCPU: 0,
	indomDisk: 1, indomLoadavg: 2, indomInterface: 3, indomIRQ: 4, indomFilesys: 5, indomSwapdev: 6,
	indomNFSClient: 7, indomNFS3: 8, indomPartitions: 10, indomSCSI: 11, indomSlab: 12,
	indomNFS4Client: 14, indomNFS4Server: 15, indomNetAddr: 17, indomTmpfs: 18,
	indomNode: 19, indomNUMA: 19, indomExtfrag: 19,
	indomICMPType: 23, indomDM: 24, indomMD: 25, indomIPCShm: 28, indomIPCMsg: 29, indomIPCSem: 30,
	indomBuddy: 31, indomZone: 32, indomZoneProt: 33, indomTape: 34, indomTTY: 35, indomSoftirq: 36,
	indomPressure: 37, indomZram: 38, indomFCHost: 39, indomIRQCPU: 40, indomSoftirqCPU: 41, indomWWID: 42,
}

// notExported are pmdalinux metrics deliberately left out: swap.in and
// swap.out have no source on modern kernels (see memory.go).
var notExported = []string{"swap.in", "swap.out"}

// linuxTwins is pmdalinux's table by name, with the figures PCP's clients
// derive (derivedTwins), which pmcd does not serve.
func linuxTwins() map[string]linuxtable.Metric {
	out := map[string]linuxtable.Metric{}
	for _, m := range linuxtable.Table() {
		out[m.Name] = m
	}
	for _, m := range derivedTwins() {
		out[m.Name] = m
	}
	return out
}

// derivedTwins are the derived metrics of /etc/pcp/derived (cpu-util.conf
// and iostat.conf) we serve computed: pmcd's table does not hold them, as
// its clients derive them. All are double instant values.
func derivedTwins() []linuxtable.Metric {
	var out []linuxtable.Metric
	add := func(name string, indom cache.InDomID, u cache.Units) {
		out = append(out, linuxtable.Metric{Name: name, InDom: indom, Type: cache.TypeDouble,
			Sem: cache.SemInstant, Units: u})
	}
	for _, f := range []string{"user", "nice", "sys", "idle", "intr", "wait", "steal"} {
		add("kernel.cpu.util."+f, cache.InDomNone, cache.UnitsNone)
	}
	perRequest := map[string]cache.Units{
		"await": iostatUnitsAwait, "r_await": iostatUnitsAwait, "w_await": iostatUnitsAwait,
		"d_await": iostatUnitsAwait, "f_await": iostatUnitsAwait, "avg_qlen": cache.UnitsNone,
		"avg_rqsz": iostatUnitsSize, "r_avg_rqsz": iostatUnitsSize, "w_avg_rqsz": iostatUnitsSize,
		"d_avg_rqsz": iostatUnitsSize, "util": cache.UnitsNone,
	}
	for tree, indom := range map[string]cache.InDomID{"dev": 1, "dm": 24, "md": 25, "wwid": 42} {
		for fig, u := range perRequest {
			add("disk."+tree+"."+fig, indom, u)
		}
	}
	return out
}

// checkTwin checks d against its pmdalinux twin m.
func checkTwin(t *testing.T, d cache.Desc, m linuxtable.Metric) {
	t.Helper()
	if d.ID.Item() >= engine.RateItemOffset {
		t.Errorf("%s: item %d collides with the rate items", m.Name, d.ID.Item())
	}
	if d.Type != m.Type {
		t.Errorf("%s: type %s, want %s", m.Name, d.Type, m.Type)
	}
	if d.Sem != m.Sem {
		t.Errorf("%s: semantics %s, want %s", m.Name, d.Sem, m.Sem)
	}
	if d.Units != m.Units {
		t.Errorf("%s: units %#x, want %#x", m.Name, uint32(d.Units), uint32(m.Units))
	}
	if linux, ok := linuxInDoms[d.InDom]; !ok || linux != m.InDom {
		t.Errorf("%s: indom %d, want ours for pmdalinux's 60.%d", m.Name, d.InDom, m.InDom)
	}
}

// checkTwinFamily checks that the metrics below family (a name prefix
// without hostcache.) that descs declares are exactly pmdalinux's, each
// with its twin's descriptor. The names in skip are pmdalinux's that descs
// need not declare.
func checkTwinFamily(t *testing.T, descs []cache.Desc, family string, skip ...string) {
	t.Helper()
	twins := linuxTwins()
	declared := map[string]bool{}
	for _, d := range descs {
		name := strings.TrimPrefix(d.Name, engine.Prefix)
		if !strings.HasPrefix(name, family) {
			continue
		}
		m, ok := twins[name]
		if !ok {
			t.Errorf("%s: declared, but pmdalinux has no such metric", name)
			continue
		}
		declared[name] = true
		checkTwin(t, d, m)
	}
	for name := range twins {
		if strings.HasPrefix(name, family) && !declared[name] && !contains(skip, name) {
			t.Errorf("%s: pmdalinux's, not declared", name)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// rateUnitsOf gives the units pmval and pmrep give the rate of a counter
// with units u: a time counter's rate is dimensionless, others gain "/ sec".
func rateUnitsOf(u cache.Units) (cache.Units, bool) {
	switch {
	case u.DimTime() == 1 && u.DimSpace() == 0 && u.DimCount() == 0:
		return cache.UnitsNone, true
	case u.DimTime() == 0:
		return cache.MakeUnits(u.DimSpace(), -1, u.DimCount(), u.ScaleSpace(), cache.TimeSec, u.ScaleCount()), true
	}
	return 0, false
}
