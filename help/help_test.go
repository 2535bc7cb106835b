package help

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := "# comment\n@ a.b One line.\nLong text\nover two lines.\n\n@ HOSTCACHE.2 Load averages\n@ c.d Only one line\n"
	texts, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := texts.MetricText("a.b", false); s != "One line." {
		t.Errorf("one-line %q", s)
	}
	if s, _ := texts.MetricText("a.b", true); s != "Long text\nover two lines." {
		t.Errorf("long %q", s)
	}
	if s, ok := texts.MetricText("c.d", true); !ok || s != "Only one line" {
		t.Errorf("long help falls back to the one-line: %q", s)
	}
	if s, ok := texts.InDomText(2, false); !ok || s != "Load averages" {
		t.Errorf("indom %q", s)
	}
	if _, ok := texts.MetricText("x", false); ok {
		t.Error("unknown metric has help")
	}
	for _, bad := range []string{"@ a.b\n", "@ a.b x\n@ a.b y\n", "@ HOSTCACHE.x y\n"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestShippedSourceParses(t *testing.T) {
	if _, err := Parse(Source()); err != nil {
		t.Fatal(err)
	}
}

// newhelp, which Install runs on this text, reads lines of a fixed
// buffer (a longer one is split into two, and pmdaproc.sh reports it: seen
// at 125 characters, never at 120 or less) and entries of at most 1024 (a
// longer one is cut short).
func TestFitsNewhelp(t *testing.T) {
	const maxLine, maxEntry = 120, 1000
	src := Source()
	for i, line := range strings.Split(src, "\n") {
		if len(line) > maxLine {
			t.Errorf("help line %d is %d characters, newhelp splits it: %.60s...", i+1, len(line), line)
		}
	}
	for _, entry := range strings.Split(src, "\n@ ")[1:] {
		if n := len(strings.TrimRight(entry, "\n")); n > maxEntry {
			t.Errorf("help entry %.50s... is %d characters, newhelp cuts it short", entry, n)
		}
	}
}
