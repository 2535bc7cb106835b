package integration

import (
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// testMMVAsPmdammv: with the writer's values held still, pminfo shows the
// same metrics below hostcache.mmv.hctest as below pmdammv's mmv.hctest:
// names, descriptors (instance domain numbers aside), help, instances and
// values. The twins: rates and their peaks for the counters, peaks for the
// numeric instants, none for the string.
func testMMVAsPmdammv(t *testing.T, w *mmvWriter) {
	ours, theirs := "hostcache.mmv."+w.name, "mmv."+w.name
	var oursValues, theirsValues string
	w.holding(t, func() {
		oursValues = mustRun(t, 20*time.Second, "pminfo", "-f", ours)
		theirsValues = mustRun(t, 20*time.Second, "pminfo", "-f", theirs)
	})
	t.Logf("hostcache, held:\n%s", oursValues)
	t.Logf("pmdammv, held:\n%s", theirsValues)
	compareBlocks(t, "pminfo -f", pminfoBlocks(oursValues, ours), pminfoBlocks(theirsValues, theirs))
	for _, flags := range []string{"-d", "-tT"} {
		compareBlocks(t, "pminfo "+flags,
			pminfoBlocks(mustRun(t, 20*time.Second, "pminfo", flags, ours), ours),
			pminfoBlocks(mustRun(t, 20*time.Second, "pminfo", flags, theirs), theirs))
	}

	counters, instants := []string{"region.requests", "requests"}, []string{"queue.depth", "region.latency"}
	for tree, want := range map[string][]string{
		"rate": counters, "max.rate": counters, "min.rate": counters, "max": instants, "min": instants,
	} {
		root := "hostcache." + tree + ".mmv." + w.name
		got := pminfoNames(mustRun(t, 20*time.Second, "pminfo", root), root)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: %v, want %v", root, got, want)
		}
	}
}

// pminfoNames are the names pminfo lists, below root, sorted.
func pminfoNames(out, root string) []string {
	var names []string
	for _, line := range strings.Fields(out) {
		if below, ok := strings.CutPrefix(line, root+"."); ok {
			names = append(names, below)
		}
	}
	sort.Strings(names)
	return names
}

var indomNumber = regexp.MustCompile(`InDom: \d+\.\d+ 0x[0-9a-f]+`)

// pminfoBlocks splits pminfo's output into each metric's text, keyed by
// its name below root; an instance domain's number, which each agent
// numbers its own way, reads as "InDom: set".
func pminfoBlocks(out, root string) map[string]string {
	blocks := map[string]string{}
	for _, block := range strings.Split(strings.TrimSpace(out), "\n\n") {
		name, rest, _ := strings.Cut(block, "\n")
		name, head, _ := strings.Cut(name, " ")
		below, ok := strings.CutPrefix(name, root+".")
		if !ok {
			continue
		}
		blocks[below] = indomNumber.ReplaceAllString(head+"\n"+rest, "InDom: set")
	}
	return blocks
}

// compareBlocks reports every metric whose text differs, or that only one
// side has.
func compareBlocks(t *testing.T, what string, ours, theirs map[string]string) {
	t.Helper()
	if len(theirs) == 0 {
		t.Fatalf("%s: pmdammv shows no metric", what)
	}
	for _, name := range sortedKeys(theirs) {
		if got, ok := ours[name]; !ok {
			t.Errorf("%s: hostcache lacks %s", what, name)
		} else if got != theirs[name] {
			t.Errorf("%s %s:\nhostcache %q\npmdammv   %q", what, name, got, theirs[name])
		}
	}
	for name := range ours {
		if _, ok := theirs[name]; !ok {
			t.Errorf("%s: hostcache has %s, pmdammv does not", what, name)
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
