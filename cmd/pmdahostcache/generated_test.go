package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// The PCP install files generated from the schema: regenerate them with
// `make generate` (go test ./cmd/pmdahostcache -run TestGenerated -update).
var update = flag.Bool("update", false, "rewrite generated files")

func fullSchema(t *testing.T) *cache.Schema {
	t.Helper()
	cfg := config.Default()
	_, store, err := buildCache(cfg, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	return store.Schema()
}

func checkGenerated(t *testing.T, path, want string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is out of date with the schema: run make generate", path)
	}
}

func TestGeneratedPMNS(t *testing.T) {
	checkGenerated(t, "../../pmns", pmnsSource(fullSchema(t)))
}

func TestGeneratedRateHelp(t *testing.T) {
	texts, err := help.Parse(help.BaseSource())
	if err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, "../../help/rates.help", rateHelp(fullSchema(t), texts))
}

// TestEveryMetricHasHelp checks the shipped help against the schema both
// ways: every metric and indom documented, no help for metrics we lack.
func TestEveryMetricHasHelp(t *testing.T) {
	s := fullSchema(t)
	texts, err := help.Parse(help.Source())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Descs() {
		one, ok := texts.MetricText(d.Name, false)
		long, _ := texts.MetricText(d.Name, true)
		if !ok || one == "" || long == "" {
			t.Errorf("%s has no help", d.Name)
		}
		if len("@ "+d.Name+" "+one) > 127 {
			t.Errorf("%s: one-line help too long for newhelp", d.Name)
		}
	}
	for _, name := range texts.Metrics() {
		if _, ok := s.Lookup(name); !ok {
			t.Errorf("help for %s, which is not a metric", name)
		}
	}
	for _, in := range s.InDoms() {
		if !texts.HasInDom(in.ID) {
			t.Errorf("indom %d (%s) has no help", in.ID, in.Name)
		}
	}
}

// pmnsSource writes the namespace with the symbolic domain, one block per
// non-leaf node, children in name order.
func pmnsSource(s *cache.Schema) string {
	children := map[string]map[string]string{} // node -> child -> PMID or ""
	for _, d := range s.Descs() {
		parts := strings.Split(d.Name, ".")
		for i := 1; i < len(parts); i++ {
			node := strings.Join(parts[:i], ".")
			if children[node] == nil {
				children[node] = map[string]string{}
			}
			leaf := ""
			if i == len(parts)-1 {
				leaf = fmt.Sprintf("%s:%d:%d", help.SymbolicDomain, d.ID.Cluster(), d.ID.Item())
			}
			children[node][parts[i]] = leaf
		}
	}
	var nodes []string
	for n := range children {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	var b strings.Builder
	b.WriteString("/*\n * hostcache PMNS, generated from the metric schema by `make generate`.\n" +
		" * HOSTCACHE is the domain from domain.h; Install substitutes it.\n */\n")
	for _, n := range nodes {
		fmt.Fprintf(&b, "\n%s {\n", n)
		var names []string
		for c := range children[n] {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			if pmid := children[n][c]; pmid != "" {
				fmt.Fprintf(&b, "    %-24s %s\n", c, pmid)
			} else {
				fmt.Fprintf(&b, "    %s\n", c)
			}
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// rateHelp documents the metrics the engine computes over each client's
// interval: every hostcache.rate.X from its counter X's help, and every
// peak twin hostcache.max.Y and hostcache.min.Y from Y's.
func rateHelp(s *cache.Schema, texts *help.Texts) string {
	var b strings.Builder
	b.WriteString("# Help for hostcache.rate.*, hostcache.max.* and hostcache.min.*, generated\n" +
		"# from the base metrics' help by `make generate`.\n")
	for _, d := range s.Descs() {
		if base, ok := strings.CutPrefix(d.Name, "hostcache.rate."); ok {
			writeRateHelp(&b, s, texts, d.Name, "hostcache."+base)
		}
	}
	for _, word := range []string{"max", "min"} {
		for _, d := range s.Descs() {
			if base, ok := strings.CutPrefix(d.Name, "hostcache."+word+"."); ok {
				writePeakHelp(&b, s, texts, d.Name, "hostcache."+base, word == "max")
			}
		}
	}
	return b.String()
}

// intervalText says which interval every computed figure covers.
const intervalText = "The interval is the asking client's own: from the sample its previous\n" +
	"fetch of this metric ended at to the newest sample, with exact sample\n" +
	"times (a first fetch, or one with no new sample since, gets the newest\n" +
	"sampling interval; none is shorter than half the collector's interval).\n"

func writeRateHelp(b *strings.Builder, s *cache.Schema, texts *help.Texts, name, counter string) {
	one, _ := texts.MetricText(counter, false)
	cd, _ := s.Lookup(counter)
	unit := "per second"
	if cd != nil && cd.Units.DimTime() == 1 {
		unit = "in seconds per second"
	}
	fmt.Fprintf(b, "\n@ %s per-second rate of the counter over the client's own interval\n", name)
	fmt.Fprintf(b, "Per-second rate of %s, %s, over the asking client's\n", counter, unit)
	b.WriteString("interval. " + intervalText)
	b.WriteString("A step in which the counter went backwards (a reset or wrap) or jumped\n" +
		"by more than half its type's range (a reset to a high value) is left out:\n" +
		"the rate is that of the good steps, never negative, never a spike.\n")
	if one != "" {
		fmt.Fprintf(b, "The counter: %s.\n", strings.TrimSuffix(one, "."))
	}
}

func writePeakHelp(b *strings.Builder, s *cache.Schema, texts *help.Texts, name, base string, isMax bool) {
	word := "lowest"
	if isMax {
		word = "highest"
	}
	// A figure computed over an interval (a rate, a derived figure) peaks
	// over steps; a sampled instant over its samples.
	bd, ok := s.Lookup(base)
	stepwise := !ok || bd.Compute != nil
	if stepwise {
		fmt.Fprintf(b, "\n@ %s %s one-step value inside the client's interval\n", name, word)
	} else {
		fmt.Fprintf(b, "\n@ %s %s sample inside the client's interval\n", name, word)
	}
	if stepwise {
		fmt.Fprintf(b, "The %s value of %s over any one sampling interval inside the\n", word, base)
		b.WriteString("asking client's interval: the peak a long logging interval averages away.\n")
	} else {
		fmt.Fprintf(b, "The %s sample of %s taken inside the asking client's interval\n", word, base)
		b.WriteString("(the sample its previous fetch ended at excluded).\n")
	}
	b.WriteString(intervalText)
	if one, ok := texts.MetricText(base, false); ok && one != "" {
		fmt.Fprintf(b, "The metric: %s.\n", strings.TrimSuffix(one, "."))
	}
}
