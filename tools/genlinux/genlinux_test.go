package main

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestParseUnits(t *testing.T) {
	cases := map[string]cache.Units{
		"none":                      cache.UnitsNone,
		"Kbyte":                     cache.UnitsKByte,
		"millisec":                  cache.UnitsMSec,
		"count / sec":               cache.UnitsCountPerSec,
		"/ microsec":                cache.MakeUnits(0, -1, 0, 0, cache.TimeUSec, 0),
		"Mbyte / sec":               cache.MakeUnits(1, -1, 0, cache.SpaceMByte, cache.TimeSec, 0),
		"byte^2 / sec":              cache.MakeUnits(2, -1, 0, cache.SpaceByte, cache.TimeSec, 0),
		"millisec / count":          cache.MakeUnits(0, 1, -1, 0, cache.TimeMSec, 0),
		"count x 10^3":              cache.MakeUnits(0, 0, 1, 0, 0, 3),
		"count x 10":                cache.MakeUnits(0, 0, 1, 0, 0, 1),
		"count x 10^3^2":            cache.MakeUnits(0, 0, 2, 0, 0, 3),
		"x 10^-2":                   cache.MakeUnits(0, 0, 0, 0, 0, -2),
		"Gbyte hour / count x 10^6": cache.MakeUnits(1, 1, -1, 3, 5, 6),
		"space-9":                   cache.MakeUnits(1, 0, 0, 9, 0, 0),
	}
	for s, want := range cases {
		got, err := parseUnits(s)
		if err != nil || got != want {
			t.Errorf("parseUnits(%q) = %#x, %v; want %#x", s, uint32(got), err, uint32(want))
		}
	}
	for _, bad := range []string{"", "furlong", "sec sec", "counts", "count x 11", "Kbyte^0", "/ "} {
		if u, err := parseUnits(bad); err == nil {
			t.Errorf("parseUnits(%q) = %#x, want an error", bad, uint32(u))
		}
	}
}

// pminfoOut is pminfo -md output for two metrics, as pmcd 6.0.3 prints it.
const pminfoOut = `
kernel.all.load PMID: 60.2.0
    Data Type: float  InDom: 60.2 0xf000002
    Semantics: instant  Units: none

kernel.all.hz PMID: 60.0.48
    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: discrete  Units: count / sec
`

func TestParseDescs(t *testing.T) {
	ms, err := parseDescs(pminfoOut)
	if err != nil {
		t.Fatal(err)
	}
	want := []metric{
		{"kernel.all.load", 2, 0, 2, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, [2]uint32{60, 60}},
		{"kernel.all.hz", 0, 48, cache.InDomNone, cache.TypeU32, cache.SemDiscrete, cache.UnitsCountPerSec,
			[2]uint32{60, 60}},
	}
	if len(ms) != len(want) {
		t.Fatalf("read %d metrics, want %d: %+v", len(ms), len(want), ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("metric %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
}

func TestParseDescsRejects(t *testing.T) {
	cases := map[string]string{
		"unknown type": strings.Replace(pminfoOut, "float", "aggregate", 1),
		"unknown sem":  strings.Replace(pminfoOut, "instant", "discrete-ish", 1),
		"missing line": strings.Replace(pminfoOut, "    Semantics: instant  Units: none\n", "", 1),
		"error text":   pminfoOut + "\nkernel.bogus: Unknown metric name\n",
	}
	for what, out := range cases {
		if ms, err := parseDescs(out); err == nil {
			t.Errorf("%s: read %+v, want an error", what, ms)
		}
	}
}

// A metric of another agent's domain, or with another domain's instance
// domain, does not enter an agent's table.
func TestCheckDomainsRejects(t *testing.T) {
	for what, out := range map[string]string{
		"another domain": strings.Replace(pminfoOut, "60.2.0", "511.0.1", 1),
		"foreign indom":  strings.Replace(pminfoOut, "InDom: 60.2", "InDom: 61.2", 1),
	} {
		ms, err := parseDescs(out)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := checkDomains(agents["linux"], ms); err == nil {
			t.Errorf("%s: accepted for pmdalinux's table", what)
		}
	}
	ms, _ := parseDescs(pminfoOut)
	if err := checkDomains(agents["linux"], ms); err != nil {
		t.Errorf("pmdalinux's own metrics: %v", err)
	}
	if err := checkDomains(agents["proc"], ms); err == nil {
		t.Error("pmdalinux's metrics accepted for pmdaproc's table")
	}
}

func TestRenderIsSortedAndStable(t *testing.T) {
	ms, err := parseDescs(pminfoOut)
	if err != nil {
		t.Fatal(err)
	}
	a, err := render(agents["linux"], "6.0.3", ms)
	if err != nil {
		t.Fatal(err)
	}
	b, err := render(agents["linux"], "6.0.3", []metric{ms[1], ms[0]})
	if err != nil {
		t.Fatal(err)
	}
	if joined(a) != joined(b) {
		t.Errorf("the order pminfo answers in changes the table:\n%s\n%s", joined(a), joined(b))
	}
	for _, f := range a {
		if !strings.HasPrefix(string(f.Src), "// Code generated ") || !strings.Contains(string(f.Src), "DO NOT EDIT.") {
			t.Errorf("%s has no generated-code header", f.Name)
		}
	}
	src := joined(a)
	hz, load := strings.Index(src, `"kernel.all.hz"`), strings.Index(src, `"kernel.all.load"`)
	if hz < 0 || load < 0 || hz > load {
		t.Errorf("rows not sorted by name:\n%s", src)
	}
	if _, err := render(agents["linux"], "6.0.3", []metric{ms[0], ms[0]}); err == nil {
		t.Error("a name described twice renders")
	}
}

// joined is the table's files, one after another.
func joined(files []genFile) string {
	var b strings.Builder
	for _, f := range files {
		b.WriteString("// file " + f.Name + "\n" + string(f.Src))
	}
	return b.String()
}
