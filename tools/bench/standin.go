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
// rounds interleaved, each row its median round. It does so on this host
// and on the scale report's generated hosts of 1x and 16x, which both
// agents read in place of /proc and /sys (pmdalinux through
// LINUX_STATSPATH). The stand-in keeps its instance ids in a directory of
// its own, never in pmdalinux's files.
func runStandIn(agent, linux string, n, rounds int, idle time.Duration) (string, error) {
	names, err := defaultLoggedNames()
	if err != nil {
		return "", err
	}
	pmids := linuxPMIDs(names)
	var rows []standInRow
	hosts := []standInHost{{"this host", 0, n, time.Second}, {"1x generated", 1, n / 10, 5 * time.Second},
		{"16x generated", 16, n / 100, 20 * time.Second}}
	for _, h := range hosts {
		ours, theirs, err := standInOn(agent, linux, h, pmids, rounds, idle)
		if err != nil {
			return "", fmt.Errorf("%s: %w", h.name, err)
		}
		rows = append(rows, standInRow{h, ours, theirs})
	}
	return standInReport(rows, len(pmids), rounds, idle), nil
}

// standInHost is a host the agents are measured on: this one (factor 0),
// or the scale report's generated host of that factor; n is the stand-in's
// fetches a round, pmdalinux making a quarter of them; settle is how long
// an agent runs before its idle CPU is measured: a big host's first
// samples find every id and every value new.
type standInHost struct {
	name   string
	factor int
	n      int
	settle time.Duration
}

type standInRow struct {
	host         standInHost
	ours, theirs pduResult
}

// standInOn measures both agents on one host.
func standInOn(agent, linux string, h standInHost, pmids []uint32, rounds int,
	idle time.Duration) (pduResult, pduResult, error) {
	dir, err := treeDir("hostcache-bench-standin")
	if err != nil {
		return pduResult{}, pduResult{}, err
	}
	defer os.RemoveAll(dir)
	conf := filepath.Join(dir, "hostcache.conf")
	ours := []string{"-d", "60", "-S", "linux", "-U", "root", "-c", conf, "-l", filepath.Join(dir, "standin.log")}
	theirs := []string{linux, "-d", "60", "-l", filepath.Join(dir, "linux.log")}
	text := "id_dir = " + dir + "\n"
	if h.factor > 0 {
		if err := generateTree(dir, scaleBase.times(h.factor)); err != nil {
			return pduResult{}, pduResult{}, err
		}
		// keep_files as the scale report: the generated files stand in
		// for procfs and sysfs, whose files the agent keeps open.
		text += "keep_files = yes\n"
		ours = append(ours, "-r", filepath.Join(dir, "proc"), "-s", filepath.Join(dir, "sys"))
		theirs = append([]string{"LINUX_STATSPATH=" + dir}, theirs...)
	}
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		return pduResult{}, pduResult{}, err
	}
	var a, b []pduResult
	for r := 0; r < rounds; r++ {
		res, err := benchAgentSettled("pmdahostcache -S linux", agent, ours, pmids, h.n, idle, h.settle)
		if err != nil {
			return pduResult{}, pduResult{}, fmt.Errorf("the stand-in: %w", err)
		}
		a = append(a, res)
		// env runs pmdalinux in its own process: the pid measured is
		// pmdalinux's.
		if res, err = benchAgentSettled("pmdalinux", "/usr/bin/env", theirs, pmids, max(h.n/4, 10), idle,
			h.settle); err != nil {
			return pduResult{}, pduResult{}, fmt.Errorf("pmdalinux: %w", err)
		}
		b = append(b, res)
	}
	return median(a), median(b), nil
}

// standInReport writes the section of docs/performance.md; idle is the
// window of each agent's idle CPU.
func standInReport(rows []standInRow, names, rounds int, idle time.Duration) string {
	var b strings.Builder
	b.WriteString("## In pmdalinux's place\n\n")
	fmt.Fprintf(&b, "hostcache standing in for pmdalinux (`-S linux`) runs beside pmdalinux, "+
		"both on pipes as pmcd runs them.\n"+
		"Both fetch the %d pmdalinux metrics of the primary pmlogger's default configuration (a fresh\n"+
		"`pmlogconf -c`), at pmdalinux's PMIDs.\n"+
		"They run on this host and on the scale report's generated "+
		"hosts, which both read in place of /proc and /sys\n"+
		"(pmdalinux through `LINUX_STATSPATH`).\n"+
		"The generated hosts are 1x: %s; 16x: %s.\n"+
		"Each row is the median round of %d (`bench standin`).\n\n",
		names, scaleBase.times(1), scaleBase.times(16), rounds)
	fmt.Fprintf(&b, "| host | agent | fetches | fetch p50 | fetch p99 | CPU per fetch | paced 10 ms apart "+
		"| CPU per s, %s idle | RSS |\n|---|---|---|---|---|---|---|---|---|\n", idle)
	for _, row := range rows {
		for _, r := range []pduResult{row.ours, row.theirs} {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %d KB |\n",
				row.host.name, r.name, r.fetches, us(r.p50), us(r.p99),
				us(r.cpuPerFetch), us(r.pacedCPU), us(r.bgPerSec), r.rssKB)
		}
	}
	b.WriteString("\n")
	for _, row := range rows {
		fmt.Fprintf(&b, "- %s: fetch p50, the stand-in %.3fx pmdalinux's; p99 %.3fx; CPU per fetch %.3fx\n",
			row.host.name, ratio(row.ours.p50, row.theirs.p50), ratio(row.ours.p99, row.theirs.p99),
			ratio(row.ours.cpuPerFetch, row.theirs.cpuPerFetch))
	}
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
		byName[m.Name] = standin.Linux().PMID(m)
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
