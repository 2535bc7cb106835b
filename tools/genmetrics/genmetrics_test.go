package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/help"

	"github.com/pmdahostcache/pmdahostcache/collector"
)

const root = "../.."

// The checked-in generated files are what the generator writes now.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	files, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(root, f.path))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != f.text {
			t.Errorf("%s is out of date with the schema: run make generate", f.path)
		}
	}
}

// Every metric's full name is written out in exactly one declaring file,
// and every metric and instance domain has help, short enough for newhelp;
// no help names a metric we do not have.
func TestDeclarationsAndHelp(t *testing.T) {
	schema, err := buildSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	declared, err := declarations(root)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := readHelp(root, true)
	if err != nil {
		t.Fatal(err)
	}
	// Names below a dynamic root have their collector's help, which the
	// agent serves as it serves the MMV files' help.
	all := withCollectorHelp(texts.texts, root)
	for _, d := range namedDescs(schema) {
		if _, err := sourceFile(d.Name, declared); err != nil {
			t.Error(err)
		}
		one, ok := all.MetricText(d.Name, false)
		long, _ := all.MetricText(d.Name, true)
		if !ok || one == "" || long == "" {
			t.Errorf("%s has no help", d.Name)
		}
		if _, inFiles := texts.texts.MetricText(d.Name, false); inFiles && dynamicName(d.Name) {
			t.Errorf("%s, below a dynamic root, has help in the help files: Install's newhelp takes it for the root", d.Name)
		}
		if len("@ "+d.Name+" "+one) > 127 {
			t.Errorf("%s: one-line help too long for newhelp", d.Name)
		}
	}
	for _, name := range texts.texts.Metrics() {
		if _, ok := schema.Lookup(name); !ok {
			t.Errorf("help for %s, which is not a metric", name)
		}
	}
	for _, in := range schema.InDoms() {
		if !texts.texts.HasInDom(in.ID) {
			t.Errorf("indom %d (%s) has no help", in.ID, in.Name)
		}
	}
	// The help package embeds the same files the generator reads.
	if embedded := help.Source(); embedded != texts.source {
		t.Error("help/*.help differ from the copy embedded in the help package: rebuild")
	}
}

// A metric whose name is built from pieces, or written out twice, is an
// error that names it.
func TestSourceFileRules(t *testing.T) {
	declared := map[string][]string{
		"hostcache.a.one": {"collector/a.go"},
		"hostcache.a.two": {"collector/a.go", "collector/b.go"},
	}
	if f, err := sourceFile("hostcache.max.rate.a.one", declared); err != nil || f != "collector/a.go" {
		t.Errorf("rate peak of a.one: %q %v", f, err)
	}
	if _, err := sourceFile("hostcache.a.three", declared); err == nil || !strings.Contains(err.Error(), "hostcache.a.three") {
		t.Errorf("a name written nowhere: %v", err)
	}
	if _, err := sourceFile("hostcache.rate.a.two", declared); err == nil || !strings.Contains(err.Error(), "2 files") {
		t.Errorf("a name written twice: %v", err)
	}
}

// Units read as pminfo -d prints them.
func TestUnitsString(t *testing.T) {
	schema, err := buildSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"hostcache.kernel.all.cpu.user":             "millisec",
		"hostcache.rate.disk.dev.read_bytes":        "Kbyte / sec",
		"hostcache.rate.kernel.all.pswitch":         "count / sec",
		"hostcache.kernel.all.load":                 "none",
		"hostcache.disk.dev.await":                  "millisec / count",
		"hostcache.network.interface.speed":         "Mbyte / sec",
		"hostcache.control.collector.history_bytes": "byte",
	}
	for name, units := range want {
		d, ok := schema.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		if got := unitsString(d.Units); got != units {
			t.Errorf("%s units %q, want %q", name, got, units)
		}
	}
}

// Every metric a pmlogconf group names (a leaf or a subtree) exists, or is
// a dynamic subtree whose names the agent gives while it runs, and each
// group file has the header, ident and probe pmlogconf wants.
func TestPmlogconfGroupsNameMetrics(t *testing.T) {
	schema, err := buildSchema(root)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := filepath.Glob(filepath.Join(root, "pmlogconf", "*"))
	if err != nil || len(groups) == 0 {
		t.Fatalf("no pmlogconf groups: %v", err)
	}
	for _, g := range groups {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if lines[0] != "#pmlogconf-setup 2.0" || !strings.HasPrefix(lines[1], "ident\t") || !strings.HasPrefix(lines[2], "probe\t") {
			t.Errorf("%s: header, ident and probe lines wanted", g)
		}
		for _, line := range lines[3:] {
			name := strings.TrimSpace(line)
			found := slices.Contains(collector.DynamicRoots(), name)
			for _, d := range schema.Descs() {
				if d.Name == name || strings.HasPrefix(d.Name, name+".") {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: %s names no metric", filepath.Base(g), name)
			}
		}
	}
}
