package help

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// compiledFixture writes base.dir and base.pag as newhelp lays them out.
func compiledFixture(t *testing.T, entries map[uint32][2]string) string {
	t.Helper()
	var list []compiledEntry
	for ident, texts := range entries {
		list = append(list, compiledEntry{ident, texts})
	}
	return compiledFixtureOf(t, list)
}

type compiledEntry struct {
	ident uint32
	texts [2]string
}

// compiledFixtureOf writes the entries in their order.
func compiledFixtureOf(t *testing.T, entries []compiledEntry) string {
	t.Helper()
	var pag []byte
	var dir []byte
	put := func(v uint32) { dir = binary.NativeEndian.AppendUint32(dir, v) }
	put(compiledMagic)
	put(compiledVersion | 1)
	put(uint32(len(entries)))
	for _, e := range entries {
		ident, texts := e.ident, e.texts
		put(ident)
		put(uint32(len(pag)))
		pag = append(append(pag, texts[0]...), 0)
		put(uint32(len(pag)))
		pag = append(append(pag, texts[1]...), 0)
	}
	base := filepath.Join(t.TempDir(), "help")
	if err := os.WriteFile(base+".dir", dir, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".pag", pag, 0o644); err != nil {
		t.Fatal(err)
	}
	return base
}

func TestCompiledReadsMetricsAndInDoms(t *testing.T) {
	pmid := uint32(60<<22 | 2<<10 | 1)
	indom := uint32(60<<22 | 3)
	base := compiledFixture(t, map[uint32][2]string{
		pmid:                   {"load average", "The load average, long."},
		indom | compiledInDom:  {"network interfaces", ""},
		uint32(60<<22 | 0<<10): {"same serial as the indom, a metric", "x"},
	})
	c, err := ReadCompiled(base)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := c.Metric(pmid, false); !ok || s != "load average" {
		t.Errorf("one-line = %q %v", s, ok)
	}
	if s, ok := c.Metric(pmid, true); !ok || s != "The load average, long." {
		t.Errorf("long = %q %v", s, ok)
	}
	if s, ok := c.InDom(indom, false); !ok || s != "network interfaces" {
		t.Errorf("indom one-line = %q %v", s, ok)
	}
	if s, ok := c.InDom(indom, true); !ok || s != "" {
		t.Errorf("an empty long text is %q %v, want the compiling agent's empty text", s, ok)
	}
	if _, ok := c.Metric(indom, false); ok {
		t.Error("an instance domain's text answers as a metric's")
	}
	if c.Len() != 3 {
		t.Errorf("Len = %d, want 3", c.Len())
	}
}

func TestCompiledRefusesDamage(t *testing.T) {
	base := compiledFixture(t, map[uint32][2]string{1: {"a", "b"}})
	dir, _ := os.ReadFile(base + ".dir")
	pag, _ := os.ReadFile(base + ".pag")
	cases := map[string]func() ([]byte, []byte){
		"short index":   func() ([]byte, []byte) { return dir[:8], pag },
		"bad magic":     func() ([]byte, []byte) { d := clone(dir); d[0] ^= 0xff; return d, pag },
		"count too big": func() ([]byte, []byte) { d := clone(dir); d[8] = 2; return d, pag },
		"offset past":   func() ([]byte, []byte) { d := clone(dir); d[16] = 200; return d, pag },
		"no NUL":        func() ([]byte, []byte) { return dir, pag[:len(pag)-1] },
	}
	for name, mk := range cases {
		d, p := mk()
		if _, err := parseCompiled(d, p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := parseCompiled(dir, pag); err != nil {
		t.Errorf("the undamaged fixture: %v", err)
	}
	if _, err := ReadCompiled(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("absent files accepted")
	}
}

// A help source may name a metric or an instance domain twice (pmdalinux's
// does); libpcp_pmda answers the metric's first entry and the domain's
// last.
func TestCompiledRepeatsAnswerAsLibpcpPmda(t *testing.T) {
	pmid, indom := uint32(60<<22|28<<10|137), uint32(60<<22|5)
	c, err := ReadCompiled(compiledFixtureOf(t, []compiledEntry{
		{pmid, [2]string{"first", ""}}, {indom | compiledInDom, [2]string{"domain first", ""}},
		{pmid, [2]string{"second", ""}}, {indom | compiledInDom, [2]string{"domain second", ""}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Metric(pmid, false); s != "first" {
		t.Errorf("metric: %q, want the first entry's", s)
	}
	if s, _ := c.InDom(indom, false); s != "domain second" {
		t.Errorf("instance domain: %q, want the last entry's", s)
	}
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// TestCompiledReadsPmdalinux reads the installed pmdalinux's help, when
// PCP is installed: kernel.all.load (60.2.0) and the interfaces (60.3).
func TestCompiledReadsPmdalinux(t *testing.T) {
	base := filepath.Join(pcpPMDAsDir(), "linux", "help")
	if _, err := os.Stat(base + ".dir"); err != nil {
		testenv.SkipOutsideCI(t, "pmdalinux's help is not installed: "+err.Error())
	}
	c, err := ReadCompiled(base)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := c.Metric(60<<22|2<<10|0, false); !ok || !strings.Contains(strings.ToLower(s), "load") {
		t.Errorf("kernel.all.load's one-line help = %q %v", s, ok)
	}
	if s, ok := c.InDom(60<<22|3, false); !ok || s == "" {
		t.Errorf("60.3's one-line help = %q %v", s, ok)
	}
	if c.Len() < 1000 {
		t.Errorf("%d texts, want pmdalinux's more than 1000", c.Len())
	}
}

func pcpPMDAsDir() string {
	if dir := os.Getenv("PCP_PMDAS_DIR"); dir != "" {
		return dir
	}
	return "/var/lib/pcp/pmdas"
}

// An index whose every entry points at the start of one long text costs
// one copy of the texts, not one per entry: a damaged or hostile help file
// cannot make the stand-in's start slow or large.
func TestCompiledManyEntriesOnOneLongText(t *testing.T) {
	const n = 20000
	var dir []byte
	put := func(v uint32) { dir = binary.NativeEndian.AppendUint32(dir, v) }
	put(compiledMagic)
	put(compiledVersion | 1)
	put(n)
	for i := range n {
		put(uint32(i))
		put(0)
		put(0)
	}
	pag := append(make([]byte, 1<<20), 0)
	for i := range pag[:len(pag)-1] {
		pag[i] = 'x'
	}
	c, err := parseCompiled(dir, pag)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := c.Metric(n-1, true); !ok || len(s) != 1<<20 {
		t.Errorf("the last entry's text: %d bytes %v, want %d", len(s), ok, 1<<20)
	}
}
