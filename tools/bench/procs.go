package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// procsConfig is what bench procs runs.
type procsConfig struct {
	fetchBin string        // tools/bench/procfetch, built
	sizes    []int         // extra processes at each step, ascending
	fetches  int           // fetches per agent per size after the first
	limit    time.Duration // the fetches of one size stop past it (a slow agent)
	window   time.Duration // each idle window
}

// procsSize is what one size measured.
type procsSize struct {
	extra     int // sleeping children
	fetch     procFetchRun
	bg        background
	hcRSS     int // KB
	procRSS   int // KB
	procsSeen int // processes in /proc when the fetches ended
}

// procsRun is the whole report's measurements.
type procsRun struct {
	columns, left []string
	base          background // no children
	sizes         []procsSize
	facts         machineFacts
}

// machineFacts say where the run was.
type machineFacts struct {
	cpus            int
	kernel          string
	pidMax          int
	hostcachePID    int
	procPID         int
	baseProcs       int
	groupsWait      time.Duration // until the groups the bench does not read were slowed
	loadBefore      string        // the load averages when the run started and ended: the machine may be shared
	loadAfter       string
	fetchesPerAgent int
}

// runProcs measures hostcache.proc against pmdaproc, both as pmcd runs
// them, with each size's sleeping children added to the host in turn.
func runProcs(cfg procsConfig) (string, error) {
	agents, err := findProcAgents()
	if err != nil {
		return "", err
	}
	if err := awaitProcSample(2 * procInterval); err != nil {
		return "", err
	}
	var run procsRun
	if run.facts.groupsWait, err = awaitGroupsIdle(groupsIdleWait); err != nil {
		return "", err
	}
	served, err := servedNames("proc", "hostcache.proc")
	if err != nil {
		return "", err
	}
	if run.columns, run.left = twinColumns(psColumns, served); len(run.columns) == 0 {
		return "", fmt.Errorf("no ps column is served by both agents")
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	largest := cfg.sizes[len(cfg.sizes)-1]
	if run.facts.pidMax, err = roomForChildren(largest); err != nil {
		return "", err
	}
	run.facts.cpus, run.facts.kernel = runtime.NumCPU(), kernelRelease()
	run.facts.hostcachePID, run.facts.procPID = agents.hostcache, agents.proc
	run.facts.baseProcs, run.facts.fetchesPerAgent = countProcs(), cfg.fetches+1
	run.facts.loadBefore = loadAverages()
	kids, err := newChildren()
	if err != nil {
		return "", err
	}
	kids.reapOnSignal()
	defer kids.reap()
	progress("baseline: no children, a %s idle window", cfg.window)
	if run.base, err = measureProcsIdle(self, agents, cfg.window); err != nil {
		return "", fmt.Errorf("baseline: %w", err)
	}
	for _, extra := range cfg.sizes {
		size, err := measureSize(cfg, self, agents, run.columns, kids, extra)
		if err != nil {
			return "", fmt.Errorf("%d children: %w", extra, err)
		}
		run.sizes = append(run.sizes, size)
	}
	if err := agents.still(); err != nil {
		return "", err
	}
	run.facts.loadAfter = loadAverages()
	return procsReport(run), nil
}

// measureSize starts children up to extra, fetches at once (the first
// fetch finds them all new), then measures an idle window and the RSS.
func measureSize(cfg procsConfig, self string, agents procAgents, columns []string, kids *children,
	extra int) (procsSize, error) {
	s := procsSize{extra: extra}
	t0 := time.Now()
	if err := kids.grow(extra); err != nil {
		return s, err
	}
	progress("%d children started in %s; fetching", extra, time.Since(t0).Round(time.Millisecond))
	var err error
	if s.fetch, err = runProcFetch(cfg.fetchBin, agents, columns, cfg.fetches, cfg.limit); err != nil {
		return s, err
	}
	if err := agents.still(); err != nil {
		return s, err
	}
	s.procsSeen = countProcs()
	progress("%d fetches in %s; a %s idle window", s.fetch.hostcache.fetches+s.fetch.proc.fetches,
		s.fetch.wall.Round(time.Millisecond), cfg.window)
	if s.bg, err = measureProcsIdle(self, agents, cfg.window); err != nil {
		return s, err
	}
	s.fetch.hostcache.cpu = perFetch(s.fetch.hcCPU, s.bg.hostcache, s.fetch.wall, s.fetch.hostcache.fetches)
	s.fetch.proc.cpu = perFetch(s.fetch.procCPU, s.bg.proc, s.fetch.wall, s.fetch.proc.fetches)
	s.hcRSS, s.procRSS = procRSS(agents.hostcache), procRSS(agents.proc)
	return s, nil
}

// countProcs is how many processes /proc lists.
func countProcs() int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if name := e.Name(); name != "" && strings.Trim(name, "0123456789") == "" {
			n++
		}
	}
	return n
}

// loadAverages are /proc/loadavg's 1, 5 and 15 minute figures.
func loadAverages() string {
	text, _ := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(text)); len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

func kernelRelease() string {
	text, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	return strings.TrimSpace(string(text))
}

// progress tells the operator where a long run is, on stderr: stdout is
// the report.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench procs: "+format+"\n", args...)
}

// procsFlagValues are bench procs's flags, parsed with the others.
type procsFlagValues struct {
	fetchBin, sizes *string
	fetches         *int
	limit, window   *time.Duration
}

func procsFlags() procsFlagValues {
	return procsFlagValues{
		fetchBin: flag.String("procfetch", "bin/procfetch", "procs: the libpcp client (tools/bench/procfetch)"),
		sizes: flag.String("procs-sizes", "1000,10000",
			"procs: the sleeping children at each step, ascending"),
		fetches: flag.Int("procs-fetches", 50, "procs: fetches per agent per size after the first"),
		limit: flag.Duration("procs-limit", 60*time.Second,
			"procs: the fetches of one size stop once they have taken this long"),
		window: flag.Duration("procs-window", 30*time.Second, "procs: each idle window"),
	}
}

// run parses the sizes and runs the report.
func (v procsFlagValues) run() (string, error) {
	sizes, err := parseSizes(*v.sizes)
	if err != nil {
		return "", err
	}
	return runProcs(procsConfig{fetchBin: *v.fetchBin, sizes: sizes, fetches: *v.fetches, limit: *v.limit,
		window: *v.window})
}

// parseSizes reads "1000,10000": positive and ascending.
func parseSizes(text string) ([]int, error) {
	var sizes []int
	for _, field := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n <= 0 || (len(sizes) > 0 && n <= sizes[len(sizes)-1]) {
			return nil, fmt.Errorf("procs sizes %q: want positive counts, ascending", text)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}
