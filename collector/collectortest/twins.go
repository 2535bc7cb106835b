package collectortest

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/standin/linuxtable"
)

// The twin checks compare a metric with its pmdalinux twin in the one
// generated table (standin/linuxtable, made by make linux-table from the
// running pmcd): type, semantics, units and instance domain. The PMIDs are
// checked by tools/genmetrics against the committed pmns.

// The units of PCP's iostat.conf figures: milliseconds and Kbyte per request.
var (
	unitsAwait = cache.MakeUnits(0, 1, -1, 0, cache.TimeMSec, 0)
	unitsSize  = cache.MakeUnits(1, 0, -1, cache.SpaceKByte, 0, 0)
)

// NotExported are pmdalinux metrics deliberately left out: swap.in and
// swap.out have no source on modern kernels (see memory.go).
var NotExported = []string{"swap.in", "swap.out"}

// LinuxTwins is pmdalinux's table by name, with the figures PCP's clients
// derive (DerivedTwins), which pmcd does not serve.
func LinuxTwins() map[string]linuxtable.Metric {
	out := map[string]linuxtable.Metric{}
	for _, m := range linuxtable.Table() {
		out[m.Name] = m
	}
	for _, m := range DerivedTwins() {
		out[m.Name] = m
	}
	return out
}

// DerivedTwins are the derived metrics of /etc/pcp/derived (cpu-util.conf
// and iostat.conf) we serve computed: pmcd's table does not hold them, as
// its clients derive them. All are double instant values.
func DerivedTwins() []linuxtable.Metric {
	var out []linuxtable.Metric
	add := func(name string, indom cache.InDomID, u cache.Units) {
		out = append(out, linuxtable.Metric{Name: name, InDom: indom, Type: cache.TypeDouble,
			Sem: cache.SemInstant, Units: u})
	}
	for _, f := range []string{"user", "nice", "sys", "idle", "intr", "wait", "steal"} {
		add("kernel.cpu.util."+f, cache.InDomNone, cache.UnitsNone)
	}
	perRequest := map[string]cache.Units{
		"await": unitsAwait, "r_await": unitsAwait, "w_await": unitsAwait,
		"d_await": unitsAwait, "f_await": unitsAwait, "avg_qlen": cache.UnitsNone,
		"avg_rqsz": unitsSize, "r_avg_rqsz": unitsSize, "w_avg_rqsz": unitsSize,
		"d_avg_rqsz": unitsSize, "util": cache.UnitsNone,
	}
	for tree, indom := range map[string]cache.InDomID{"dev": 1, "dm": 24, "md": 25, "wwid": 42} {
		for fig, u := range perRequest {
			add("disk."+tree+"."+fig, indom, u)
		}
	}
	return out
}

// CheckTwin checks d against its pmdalinux twin m; inDoms maps our
// instance domains to pmdalinux's serials.
func CheckTwin(t *testing.T, d cache.Desc, m linuxtable.Metric, inDoms map[cache.InDomID]cache.InDomID) {
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
	linux, ok := inDoms[d.InDom]
	if d.InDom == cache.InDomNone {
		linux, ok = cache.InDomNone, true
	}
	if !ok || linux != m.InDom {
		t.Errorf("%s: indom %d, want ours for pmdalinux's 60.%d", m.Name, d.InDom, m.InDom)
	}
}

// CheckTwinFamily checks that the metrics below family (a name prefix
// without hostcache.) that descs declares are exactly pmdalinux's, each
// with its twin's descriptor. The names in skip are pmdalinux's that descs
// need not declare.
func CheckTwinFamily(t *testing.T, descs []cache.Desc, family string, inDoms map[cache.InDomID]cache.InDomID,
	skip ...string) {
	t.Helper()
	twins := LinuxTwins()
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
		CheckTwin(t, d, m, inDoms)
	}
	for name := range twins {
		if strings.HasPrefix(name, family) && !declared[name] && !Contains(skip, name) {
			t.Errorf("%s: pmdalinux's, not declared", name)
		}
	}
}

func Contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// RateUnitsOf gives the units pmval and pmrep give the rate of a counter
// with units u: a time counter's rate is dimensionless, others gain "/ sec".
func RateUnitsOf(u cache.Units) (cache.Units, bool) {
	switch {
	case u.DimTime() == 1 && u.DimSpace() == 0 && u.DimCount() == 0:
		return cache.UnitsNone, true
	case u.DimTime() == 0:
		return cache.MakeUnits(u.DimSpace(), -1, u.DimCount(),
			u.ScaleSpace(), cache.TimeSec, u.ScaleCount()), true
	}
	return 0, false
}
