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

// rateHelp documents every hostcache.rate.X from its counter X's help.
func rateHelp(s *cache.Schema, texts *help.Texts) string {
	var b strings.Builder
	b.WriteString("# Help for hostcache.rate.*, generated from the counters' help by `make generate`.\n")
	for _, d := range s.Descs() {
		counter, ok := strings.CutPrefix(d.Name, "hostcache.rate.")
		if !ok {
			continue
		}
		counter = "hostcache." + counter
		one, _ := texts.MetricText(counter, false)
		cd, _ := s.Lookup(counter)
		unit := "per second"
		if cd != nil && cd.Units.DimTime() == 1 {
			unit = "in seconds per second"
		}
		fmt.Fprintf(&b, "\n@ %s rate of %s\n", d.Name, counter)
		fmt.Fprintf(&b, "Per-second rate of %s, %s, over the true interval between\n", counter, unit)
		b.WriteString("its last two samples (monotonic clock). No value until two samples exist,\n")
		b.WriteString("nor for an interval in which the counter went backwards.\n")
		if one != "" {
			fmt.Fprintf(&b, "The counter: %s.\n", strings.TrimSuffix(one, "."))
		}
	}
	return b.String()
}
