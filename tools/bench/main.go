// Command bench measures pmdahostcache against pmdalinux in one run on one
// machine and prints the ratio table of the performance targets:
//
//   - PDU level: both agents started on pipes as pmcd starts them, the same
//     FETCH replayed; service time percentiles and agent CPU per fetch;
//   - end to end: pmFetch through the real pmcd (tools/fetchloop), against
//     the shipped sample PMDA's sample.long.one as the floor, with 1 and 8
//     concurrent clients.
//
// It needs root, PCP with hostcache and sample installed, and fetchloop
// built: `make bench` arranges all of that.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Usage: bench [targets|scale|stall|soak|record|collectors|background|readers|standin|procs|gen-tree] [flags]
func main() {
	mode := "targets"
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		mode = os.Args[1]
		os.Args = append([]string{os.Args[0]}, os.Args[2:]...)
	}
	agent := flag.String("agent", "bin/pmdahostcache", "pmdahostcache binary")
	linux := flag.String("linux", "/var/lib/pcp/pmdas/linux/pmdalinux", "pmdalinux binary")
	loop := flag.String("fetchloop", "bin/fetchloop", "fetchloop binary")
	cFloor := flag.String("echoagent", "bin/echoagent", "the C agent that answers nothing (tools/echoagent)")
	ticker := flag.String("ticker", "bin/ticker",
		"the C program that reads the one-second files each second (tools/echoagent)")
	n := flag.Int("n", 10000, "fetches per PDU-level round")
	e2eN := flag.Int("e2e", 5000, "fetches per client through pmcd")
	clients := flag.Int("clients", 8, "concurrent clients for the throughput run")
	idle := flag.Duration("idle", 5*time.Second,
		"idle time to measure background CPU (background: the window of each run)")
	out := flag.String("o", "", "also write the report (markdown) to this file")
	pmns := flag.String("pmns", "pmns", "the project's pmns file (scale, stall)")
	stallFor := flag.Duration("stall", 30*time.Second, "how long the stalled collector stays stuck")
	soakN := flag.Int("soak", 125000, "fetches per client in the soak")
	recordWarm := flag.Duration("record-warm", 60*time.Second, "history gathered before the recording run")
	recordFor := flag.Duration("record-for", 30*time.Second, "how long the recording run fetches")
	before := flag.String("before", "",
		"collectors, background, readers: an older agent binary whose idle CPU is measured beside -agent's")
	rounds := flag.Int("rounds", 3, "collectors, background, readers: alternating idle runs of each agent")
	readersSettle := flag.Duration("readers-settle", 10*time.Second,
		"readers: how long the readers fetch before the CPU window (the agent learns their phases)")
	readersWindow := flag.Duration("readers-window", 20*time.Second, "readers: the CPU window of each run")
	nowConf := flag.String("now-conf", "",
		"collectors: configuration lines for -agent only; "+
			"background: for every binary (e.g. \"idle_after = 5\")")
	procs := procsFlags()
	flag.Parse()
	var report string
	var err error
	switch mode {
	case "targets":
		report, err = run(*agent, *linux, *loop, *cFloor, *ticker, *n, *e2eN, *clients, *idle)
	case "scale":
		report, err = runScale(*agent, *ticker, *pmns)
	case "stall":
		report, err = runStall(*agent, *pmns, *stallFor)
	case "soak":
		report, err = runSoak(*loop, *clients, *soakN)
	case "record":
		report, err = runRecord(*agent, *pmns, *recordWarm, *recordFor)
	case "collectors":
		if *nowConf != "" {
			settle = 15 * time.Second
		}
		report, err = runCollectors(*agent, *before, *rounds, *idle,
			strings.ReplaceAll(*nowConf, ";", "\n")+"\n")
	case "background":
		report, err = runBackground(*agent, *before, flag.Arg(0), strings.ReplaceAll(*nowConf, ";", "\n")+"\n",
			*rounds, *idle)
	case "readers":
		report, err = runReaders(*agent, *before, *rounds, *readersSettle, *readersWindow)
	case "standin":
		report, err = runStandIn(*agent, *linux, *n, *rounds, *idle)
	case "procs":
		report, err = procs.run()
	case "procs-floor":
		if err := runProcFloor(); err != nil {
			fmt.Fprintln(os.Stderr, "bench procs-floor:", err)
			os.Exit(1)
		}
		return
	case "echo-agent":
		runEchoAgent()
		return
	case "gen-tree":
		// For profiling by hand: bench gen-tree DIR FACTOR writes the scale
		// report's host of that size; run the agent on it with -r DIR/proc
		// -s DIR/sys.
		if err := genTree(flag.Arg(0), flag.Arg(1)); err != nil {
			fmt.Fprintln(os.Stderr, "bench gen-tree:", err)
			os.Exit(1)
		}
		return
	case "go-ticker":
		if err := runGoTicker(flag.Arg(0)); err != nil {
			fmt.Fprintln(os.Stderr, "bench go-ticker:", err)
			os.Exit(1)
		}
		return
	default:
		err = fmt.Errorf("unknown mode %q (targets, scale, stall, soak, "+
			"record, collectors, background, readers, standin, procs, gen-tree)", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Print(report)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
	}
}

func run(agent, linux, loop, cFloor, ticker string, n, e2eN, clients int, idle time.Duration) (string, error) {
	ours := prefixed("hostcache.", equivalentSet)
	ourPMIDs, err := lookupPMIDs(ours)
	if err != nil {
		return "", err
	}
	linuxPMIDs, err := lookupPMIDs(equivalentSet)
	if err != nil {
		return "", err
	}
	quiet, err := quietConfig()
	if err != nil {
		return "", err
	}
	defer os.Remove(quiet)
	cacheOnly, err := cacheOnlyConfig()
	if err != nil {
		return "", err
	}
	defer os.Remove(cacheOnly)
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	// Six agents, measured in interleaved rounds so that a noisy neighbour
	// on a shared machine hits them alike; each row is its median round.
	//  - pmdahostcache as installed: a fetch older than fresh_within (20
	//    ms) has its collectors sampled;
	//  - the same answering from the cache as it is (fresh_within = 0);
	//  - the same with sampling parked (an hour's interval after the first
	//    samples): the fetch path alone, nothing to subtract;
	//  - a Go agent that does nothing, over the same transport as ours;
	//  - a C agent that does nothing: what any agent pays for a round trip
	//    on pmcd's pipes, the floor of every CPU-per-fetch figure;
	//  - pmdalinux.
	agents := []struct {
		name, path string
		args       []string
		pmids      []uint32
		n          int
	}{
		{"pmdahostcache", agent, []string{"-d", "396", "-l", "LOG", "-U", "root"}, ourPMIDs, n},
		{"pmdahostcache (fresh_within = 0)", agent,
			[]string{"-d", "396", "-l", "LOG", "-U", "root", "-c", cacheOnly}, ourPMIDs, n},
		{"pmdahostcache (sampling parked)", agent,
			[]string{"-d", "396", "-l", "LOG", "-U", "root", "-c", quiet}, ourPMIDs, n},
		{"Go agent doing nothing", self, []string{"echo-agent"}, ourPMIDs, n},
		{"C agent doing nothing (floor)", cFloor, nil, ourPMIDs, n},
		{"pmdalinux", linux, []string{"-d", "60", "-l", "LOG"}, linuxPMIDs, n / 4},
	}
	// Each agent logs to a file of its own: libpcp's log opening renames and
	// recreates the named file, which must never be /dev/null.
	logDir, err := os.MkdirTemp("", "hostcache-bench-logs")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(logDir)
	for i := range agents {
		for j, arg := range agents[i].args {
			if arg == "-l" {
				agents[i].args[j+1] = filepath.Join(logDir, fmt.Sprintf("agent%d.log", i))
			}
		}
	}
	// The floors re-read what the collectors keep open on this machine, at
	// their intervals.
	costs, err := collectorCosts(20, engine.Env{Proc: "/proc", Sys: "/sys"})
	if err != nil {
		return "", err
	}
	plan := filepath.Join(logDir, "plan")
	if err := writePlan(plan, planOf(costs)); err != nil {
		return "", err
	}
	const rounds = 3
	results := make([][]pduResult, len(agents))
	var tickerCPU, goTickerCPU []time.Duration
	for round := 0; round < rounds; round++ {
		t, err := backgroundCPU(ticker, []string{plan}, idle)
		if err != nil {
			return "", fmt.Errorf("ticker: %w", err)
		}
		tickerCPU = append(tickerCPU, t)
		if t, err = backgroundCPU(self, []string{"go-ticker", plan}, idle); err != nil {
			return "", fmt.Errorf("go ticker: %w", err)
		}
		goTickerCPU = append(goTickerCPU, t)
		for i, a := range agents {
			r, err := benchAgent(a.name, a.path, a.args, a.pmids, a.n, idle)
			if err != nil {
				return "", fmt.Errorf("%s: %w", a.name, err)
			}
			results[i] = append(results[i], r)
		}
	}
	hc, hcCache, hcQuiet := median(results[0]), median(results[1]), median(results[2])
	goFloor, cFloorRes, lx := median(results[3]), median(results[4]), median(results[5])
	var e e2e
	if e.floor, err = fetchloop(loop, 1, e2eN, []string{"sample.long.one"}); err != nil {
		return "", err
	}
	if e.ours1, err = fetchloop(loop, 1, e2eN, ours); err != nil {
		return "", err
	}
	if e.linux1, err = fetchloop(loop, 1, e2eN/4, equivalentSet); err != nil {
		return "", err
	}
	if e.oursN, err = fetchloop(loop, clients, e2eN, ours); err != nil {
		return "", err
	}
	if e.linuxN, err = fetchloop(loop, clients, e2eN/4, equivalentSet); err != nil {
		return "", err
	}
	slices.Sort(tickerCPU)
	slices.Sort(goTickerCPU)
	rows := pduRows{hc, hcCache, hcQuiet, goFloor, cFloorRes, lx}
	return format(rows, tickerCPU[len(tickerCPU)/2], goTickerCPU[len(goTickerCPU)/2], e, idle), nil
}

// median returns the round with the median CPU per fetch, carrying the
// median paced CPU per fetch of all rounds.
func median(rs []pduResult) pduResult {
	slices.SortFunc(rs, func(a, b pduResult) int { return cmp.Compare(a.pacedCPU, b.pacedCPU) })
	paced := rs[len(rs)/2].pacedCPU
	slices.SortFunc(rs, func(a, b pduResult) int { return cmp.Compare(a.cpuPerFetch, b.cpuPerFetch) })
	m := rs[len(rs)/2]
	m.pacedCPU = paced
	return m
}

// quietConfig writes a config whose collectors sample once, then hourly.
func quietConfig() (string, error) {
	f, err := os.CreateTemp("", "hostcache-quiet-*.conf")
	if err != nil {
		return "", err
	}
	defer f.Close()
	// Every registered collector, so that one added later is parked too;
	// and no sample for a fetch.
	text := "interval = 3600000\nfresh_within = 0\n"
	for _, reg := range collector.Registry() {
		text += "collector." + reg.Name + ".interval = 3600000\n"
	}
	_, err = f.WriteString(text)
	return f.Name(), err
}

// cacheOnlyConfig writes a config that answers fetches from the cache as
// it is: the collectors at their intervals, none sampled for a fetch.
func cacheOnlyConfig() (string, error) {
	f, err := os.CreateTemp("", "hostcache-cache-only-*.conf")
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = f.WriteString("fresh_within = 0\n")
	return f.Name(), err
}

// e2e holds the runs through pmcd.
type e2e struct {
	floor, ours1, linux1, oursN, linuxN e2eResult
}
