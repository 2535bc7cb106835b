package help

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// newhelpPath is PCP's newhelp, which Install compiles a capture with.
func newhelpPath(t *testing.T) string {
	t.Helper()
	dirs := []string{os.Getenv("PCP_BINADM_DIR"), "/usr/lib/pcp/bin", "/usr/libexec/pcp/bin"}
	for _, dir := range dirs {
		path := filepath.Join(dir, "newhelp")
		if st, err := os.Stat(path); dir != "" && err == nil && st.Mode()&0o111 != 0 {
			return path
		}
	}
	testenv.SkipOutsideCI(t, "PCP's newhelp is not installed")
	return ""
}

// capturedFixture compiles testdata/captured.help with newhelp where
// Install puts a capture of pmdaproc's help, and returns $PCP_PMDAS_DIR.
func capturedFixture(t *testing.T) string {
	t.Helper()
	pmdas := t.TempDir()
	base := CapturedBase(pmdas, "proc")
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(newhelpPath(t), "-o", base, "testdata/captured.help").CombinedOutput()
	if err != nil {
		t.Fatalf("newhelp: %v\n%s", err, out)
	}
	return pmdas
}

// A capture keeps each long text as the agent answered it: newhelp drops
// the newlines that end a text, and the end line keeps them.
func TestReadCapturedKeepsTheAgentsTexts(t *testing.T) {
	c, base, err := ReadCaptured(capturedFixture(t), "proc")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(base) != "standin.proc.help" || filepath.Base(filepath.Dir(base)) != "hostcache" {
		t.Errorf("base %s, want hostcache/standin.proc.help", base)
	}
	pmid := func(cluster, item uint32) uint32 { return 3<<22 | cluster<<10 | item }
	want := []struct {
		pmid          uint32
		oneLine, long string
	}{
		{pmid(8, 13), "fixture user time", "The fixture's long text for 3.8.13,\nover two lines."},
		{pmid(32, 0), "fixture text ending with a newline",
			"The fixture's long text for 3.32.0 ends with a newline.\n"},
		{pmid(51, 0), "fixture without a long text", ""},
		{pmid(9, 1), "fixture text starting with a blank line",
			"\nThe fixture's long text for 3.9.1 starts with a newline."},
	}
	for _, w := range want {
		if got, ok := c.Metric(w.pmid, false); !ok || got != w.oneLine {
			t.Errorf("%#x one-line: %q %v, want %q", w.pmid, got, ok, w.oneLine)
		}
		if got, ok := c.Metric(w.pmid, true); !ok || got != w.long {
			t.Errorf("%#x long: %q %v, want %q", w.pmid, got, ok, w.long)
		}
	}
	if c.Len() != len(want) {
		t.Errorf("%d texts, want %d", c.Len(), len(want))
	}
}

// A compiled help file whose long texts have no end line is not a
// capture: read as one, it would cut its texts short.
func TestReadCapturedRefusesOtherHelp(t *testing.T) {
	pmdas := t.TempDir()
	base := compiledFixture(t, map[uint32][2]string{
		3<<22 | 8<<10 | 13: {"one line", "a long text without the end line"},
		3<<22 | 8<<10 | 14: {"one line", "."},
	})
	dst := CapturedBase(pmdas, "proc")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".dir", ".pag"} {
		data, err := os.ReadFile(base + ext)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+ext, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c, _, err := ReadCaptured(pmdas, "proc"); err == nil {
		t.Errorf("read as a capture: %d texts", c.Len())
	}
	if _, _, err := ReadCaptured(pmdas, "linux"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no capture of pmdalinux: %v, want a missing file", err)
	}
	if _, _, err := ReadCaptured("", "proc"); !errors.Is(err, ErrNoPMDAsDir) {
		t.Errorf("no directory: %v", err)
	}
}

// The agent's help file answers first; the capture gives only what the
// file lacks.
func TestLayerPrefersTheAgentsHelpFile(t *testing.T) {
	inBoth, onlyBelow, onlyTop := uint32(3<<22|1<<10), uint32(3<<22|8<<10|13), uint32(3<<22|2<<10)
	indom := uint32(3<<22 | 9)
	top, err := ReadCompiled(compiledFixture(t, map[uint32][2]string{
		inBoth: {"help file", ""}, onlyTop: {"help file only", "long"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	below, err := ReadCompiled(compiledFixture(t, map[uint32][2]string{
		inBoth: {"captured", "captured long"}, onlyBelow: {"captured only", "long\n"},
		indom | compiledInDom: {"captured domain", ""},
	}))
	if err != nil {
		t.Fatal(err)
	}
	all, added := Layer(top, below)
	if added != 2 || all.Len() != 4 {
		t.Errorf("added %d of %d texts, want 2 of 4", added, all.Len())
	}
	if s, _ := all.Metric(inBoth, true); s != "" {
		t.Errorf("a PMID in both: long %q, want the help file's empty text", s)
	}
	if s, _ := all.Metric(onlyBelow, true); s != "long\n" {
		t.Errorf("a PMID only captured: %q", s)
	}
	if s, _ := all.InDom(indom, false); s != "captured domain" {
		t.Errorf("a domain only captured: %q", s)
	}
	if _, ok := top.Metric(onlyBelow, false); ok {
		t.Error("Layer changed the help file's texts")
	}
	if got, n := Layer(top, nil); got != top || n != 0 {
		t.Errorf("no capture: %p %d, want the help file", got, n)
	}
	if got, n := Layer(nil, below); got != below || n != below.Len() {
		t.Errorf("no help file: %p %d, want the capture", got, n)
	}
	if got, _ := Layer(nil, nil); got != nil {
		t.Error("neither is not nil")
	}
}
