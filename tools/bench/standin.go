package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/standin"
)

// runStandIn measures hostcache standing in for pmdalinux against
// pmdalinux itself, both on pipes as pmcd runs them, fetching the
// pmdalinux metrics of the primary pmlogger's default configuration (a
// fresh pmlogconf), at the very PMIDs pmcd would send either: fetch
// latency, CPU per fetch back to back and paced, and CPU while idle;
// rounds interleaved, each row its median round. The stand-in keeps its
// instance ids in a directory of its own, never in pmdalinux's files.
func runStandIn(agent, linux string, n, rounds int, idle time.Duration) (string, error) {
	names, err := defaultLoggedNames()
	if err != nil {
		return "", err
	}
	pmids := linuxPMIDs(names)
	dir, err := os.MkdirTemp("", "hostcache-bench-standin")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	conf := filepath.Join(dir, "hostcache.conf")
	if err := os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644); err != nil {
		return "", err
	}
	agents := []struct {
		name, path string
		args       []string
		n          int
	}{
		{"pmdahostcache -S linux", agent, []string{"-d", "60", "-S", "linux", "-U", "root", "-c", conf,
			"-l", filepath.Join(dir, "standin.log")}, n},
		{"pmdalinux", linux, []string{"-d", "60", "-l", filepath.Join(dir, "linux.log")}, n / 4},
	}
	results := make([][]pduResult, len(agents))
	for r := 0; r < rounds; r++ {
		for i, a := range agents {
			res, err := benchAgent(a.name, a.path, a.args, pmids, a.n, idle)
			if err != nil {
				return "", fmt.Errorf("%s: %w", a.name, err)
			}
			results[i] = append(results[i], res)
		}
	}
	return standInReport(median(results[0]), median(results[1]), len(pmids), rounds), nil
}

// standInReport writes the section of docs/performance.md.
func standInReport(ours, theirs pduResult, names, rounds int) string {
	var b strings.Builder
	b.WriteString("## In pmdalinux's place\n\n")
	fmt.Fprintf(&b, "hostcache standing in for pmdalinux (`-S linux`) and pmdalinux, both on pipes as pmcd runs them,\n"+
		"fetching the %d pmdalinux metrics of the primary pmlogger's default configuration (a fresh\n"+
		"`pmlogconf -c`) at pmdalinux's PMIDs, on this host; %d rounds, the median round of each\n"+
		"(`bench standin`).\n\n", names, rounds)
	b.WriteString("| agent | fetch p50 | fetch p99 | CPU per fetch | paced 10 ms apart | CPU per s idle | RSS |\n|---|---|---|---|---|---|---|\n")
	for _, r := range []pduResult{ours, theirs} {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %d KB |\n", r.name, us(r.p50), us(r.p99),
			us(r.cpuPerFetch), us(r.pacedCPU), us(r.bgPerSec), r.rssKB)
	}
	fmt.Fprintf(&b, "\n- fetch p99: the stand-in %.2fx pmdalinux's; CPU per fetch %.2fx\n",
		ratio(ours.p99, theirs.p99), ratio(ours.cpuPerFetch, theirs.cpuPerFetch))
	return b.String()
}

// loggedName is a metric name in a pmlogger configuration's log block.
var loggedName = regexp.MustCompile(`^\s*([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\s*$`)

// defaultLoggedNames are the leaf names the primary pmlogger's fresh
// default configuration logs.
func defaultLoggedNames() ([]string, error) {
	f, err := os.CreateTemp("", "hostcache-bench-pmlogconf")
	if err != nil {
		return nil, err
	}
	f.Close()
	defer os.Remove(f.Name())
	os.Remove(f.Name()) // pmlogconf creates it
	if out, err := exec.Command("pmlogconf", "-c", "-q", "-h", "local:", f.Name()).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pmlogconf: %v: %s", err, out)
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	var roots []string
	for _, line := range strings.Split(string(data), "\n") {
		if m := loggedName.FindStringSubmatch(line); m != nil {
			roots = append(roots, m[1])
		}
	}
	out, err := exec.Command("pminfo", roots...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pminfo: %v: %s", err, out)
	}
	return strings.Fields(string(out)), nil
}

// linuxPMIDs are pmdalinux's PMIDs of the names it has, in name order.
func linuxPMIDs(names []string) []uint32 {
	byName := map[string]uint32{}
	for _, m := range standin.LinuxTable() {
		byName[m.Name] = m.PMID()
	}
	sort.Strings(names)
	var out []uint32
	for _, n := range names {
		if id, ok := byName[n]; ok {
			out = append(out, id)
		}
	}
	return out
}
