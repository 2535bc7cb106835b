package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// notOurs are the pmdalinux metrics PCP's tools use that hostcache does not
// twin, and why. Per-process metrics (proc.*) are pmdaproc's, not
// pmdalinux's, and are not counted at all.
var notOurs = map[string]string{}

// notYet are the holes the coverage work has still to fill (the issue
// "Cover what PCP's own tools use"): each is reported, not failed, and a
// name on this list that has become a twin fails the test until it is
// taken off, so the list stays true.
var notYet = map[string]bool{}

var metricToken = regexp.MustCompile(`[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+`)

// testToolCoverage: every pmdalinux metric that PCP's own tools use and
// that has values on this host has a hostcache twin, but for notOurs. The
// tools are read from the machine: pmrep's views, the derived-metric
// files, pcp-dstat's plugins, the metrics pmstat, pcp-iostat, pcp-mpstat,
// pcp-free, pcp-uptime and pcp-dstat name, and the rules pmieconf enables.
func testToolCoverage(t *testing.T) {
	used := toolMetrics(t)
	linux := pmdalinuxOf(t, used)
	if len(linux) < 200 {
		t.Fatalf("only %d pmdalinux metrics found in PCP's tools", len(linux))
	}
	ours := map[string]bool{}
	for _, n := range metricNames(t) {
		ours[strings.TrimPrefix(n, "hostcache.")] = true
	}
	var covered, noValue, excluded int
	var missing, todo []string
	for _, m := range linux {
		switch {
		case ours[m] && notYet[m]:
			t.Errorf("%s is twinned now: take it off notYet", m)
		case ours[m]:
			covered++
		case notYet[m]:
			todo = append(todo, m)
		case excludedTool(m):
			excluded++
		case !hasValues(m):
			noValue++
		default:
			missing = append(missing, m)
		}
	}
	t.Logf("PCP's tools use %d pmdalinux metrics: %d twinned, %d without values on this host, %d excluded, %d still to do, %d missing",
		len(linux), covered, noValue, excluded, len(todo), len(missing))
	if len(todo) > 0 {
		t.Logf("still to do: %s", strings.Join(todo, " "))
	}
	for _, m := range missing {
		t.Errorf("%s: PCP's tools use it, pmdalinux has values, hostcache has no twin", m)
	}
}

func excludedTool(m string) bool {
	for prefix := range notOurs {
		if m == prefix || strings.HasPrefix(m, prefix+".") {
			return true
		}
	}
	return false
}

// toolMetrics gathers every metric-like name PCP's tools on this machine
// mention.
func toolMetrics(t *testing.T) map[string]bool {
	t.Helper()
	sysconf := pcpVar(t, "PCP_SYSCONF_DIR")
	bin := pcpVar(t, "PCP_BINADM_DIR")
	var files []string
	for _, g := range []string{"pmrep/*.conf", "derived/*", "dstat/*"} {
		m, _ := filepath.Glob(filepath.Join(sysconf, g))
		files = append(files, m...)
	}
	for _, tool := range []string{"pcp-iostat", "pcp-mpstat", "pcp-free", "pcp-uptime", "pcp-dstat"} {
		files = append(files, filepath.Join(bin, tool))
	}
	used := map[string]bool{}
	add := func(text string) {
		for _, m := range metricToken.FindAllString(text, -1) {
			used[m] = true
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Logf("not read: %v", err)
			continue
		}
		add(string(data))
	}
	if path, err := exec.LookPath("pmstat"); err == nil {
		out, _ := exec.Command("strings", path).Output()
		add(string(out))
	}
	add(enabledPmieRules(t))
	return used
}

// enabledPmieRules is the pmie configuration pmieconf generates: the
// rules enabled by default, with their metrics.
func enabledPmieRules(t *testing.T) string {
	t.Helper()
	config := filepath.Join(t.TempDir(), "config.pmie")
	// list only reads: a modify writes the file, every enabled rule in it.
	run(t, time.Minute, "pmieconf", "-f", config, "modify", "global", "delta", "\"1 min\"")
	data, err := os.ReadFile(config)
	if err != nil {
		t.Errorf("pmieconf wrote no configuration: %v", err)
	}
	// Only the rules' expressions, not the comments listing disabled ones.
	var b strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") && !strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// pmdalinuxOf keeps the names pmdalinux (domain 60) exports, sorted; proc.*
// are pmdaproc's.
func pmdalinuxOf(t *testing.T, names map[string]bool) []string {
	t.Helper()
	var list []string
	for n := range names {
		if !strings.HasPrefix(n, "proc.") && !strings.HasPrefix(n, "hostcache.") {
			list = append(list, n)
		}
	}
	sort.Strings(list)
	// stdout only: pminfo's errors for the names it does not know go to
	// stderr, and must not be read as names.
	out, _ := exec.Command("pminfo", append([]string{"-m"}, list...)...).Output()
	var linux []string
	for _, m := range regexp.MustCompile(`(?m)^(\S+) PMID: 60\.`).FindAllStringSubmatch(string(out), -1) {
		if names[m[1]] {
			linux = append(linux, m[1])
		}
	}
	return linux
}

// hasValues reports whether pminfo -f shows a value of m.
func hasValues(m string) bool {
	out, _ := exec.Command("pminfo", "-f", m).Output()
	return valueLine.Match(out)
}
