package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// fetchFigures are one agent's fetches of the ps columns in one run of
// tools/bench/procfetch.
type fetchFigures struct {
	first    time.Duration   // the context's first fetch, right after the children started
	rest     []time.Duration // the fetches after it, sorted
	errors   int             // fetches that failed or carried an error value
	status   int             // the first error's code (PM_ERR_*), 0 when none
	values   int             // processes answered in the last fetch without an error
	cpu      time.Duration   // the agent's CPU per fetch, its background subtracted
	fetches  int             // all fetches, the first among them
	firstErr bool            // the first fetch failed
}

// p returns the rest's percentile q (0 to 1).
func (f fetchFigures) p(q float64) time.Duration { return percentile(f.rest, q) }

// percentile returns the nearest-rank percentile q of sorted durations,
// 0 when there are none.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(float64(len(sorted))*q+0.999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

// parseProcFetch reads procfetch's lines ("label round latency_us status
// values") into figures by label.
func parseProcFetch(out string) (map[string]*fetchFigures, error) {
	figs := map[string]*fetchFigures{}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 5 {
			return nil, fmt.Errorf("procfetch line %d: %q", i+1, line)
		}
		round, err1 := strconv.Atoi(f[1])
		us, err2 := strconv.ParseFloat(f[2], 64)
		status, err3 := strconv.Atoi(f[3])
		values, err4 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return nil, fmt.Errorf("procfetch line %d: %q", i+1, line)
		}
		fig := figs[f[0]]
		if fig == nil {
			fig = &fetchFigures{}
			figs[f[0]] = fig
		}
		lat := time.Duration(us * 1e3)
		fig.fetches++
		if status != 0 {
			fig.errors++
			if fig.status == 0 {
				fig.status = status
			}
		} else {
			fig.values = values
		}
		if round == 0 {
			fig.first, fig.firstErr = lat, status != 0
		} else {
			fig.rest = append(fig.rest, lat)
		}
	}
	for _, fig := range figs {
		slices.Sort(fig.rest)
	}
	return figs, nil
}

// procFetchRun is one run of procfetch: both agents' fetches in turn,
// and each agent's CPU over the run; then hostcache's answers from its
// cache.
type procFetchRun struct {
	hostcache, proc fetchFigures
	wall            time.Duration
	hcCPU, procCPU  time.Duration // the agents' CPU over the run, as measured
	sampled         int64         // hostcache's fetches that had the proc collector sample anew
	// answer is hostcache's own mean time from a fetch's arrival to its
	// reply (hostcache.control.fetch.answer_time) over the cache row's
	// fetches, the probe before them among them; whole is the client's
	// mean time for the same fetches.
	answer, whole time.Duration
	cached        fetchFigures // hostcache's second fetches at once, from the sample the first had taken
}

// twinsOf names hostcache's twins of columns.
func twinsOf(columns []string) []string {
	twins := make([]string, len(columns))
	for i, c := range columns {
		twins[i] = "hostcache." + c
	}
	return twins
}

// runProcFetch fetches the columns from both agents in turn: hostcache's
// twins first in each round, then pmdaproc's; n rounds after the first,
// fewer once limit has passed.
func runProcFetch(bin string, agents procAgents, columns []string, n int, limit time.Duration) (procFetchRun, error) {
	var run procFetchRun
	before, err := readProcCollector()
	if err != nil {
		return run, err
	}
	hc0, proc0, t0 := procCPU(agents.hostcache), procCPU(agents.proc), time.Now()
	figs, err := procFetch(bin, n, limit, fetchList{"hostcache", twinsOf(columns)}, fetchList{"proc", columns})
	run.wall, run.hcCPU, run.procCPU = time.Since(t0), procCPU(agents.hostcache)-hc0, procCPU(agents.proc)-proc0
	if err != nil {
		return run, err
	}
	run.hostcache, run.proc = figs[0], figs[1]
	after, err := readProcCollector()
	if err != nil {
		return run, err
	}
	run.sampled = after.fetchSamples - before.fetchSamples
	// The cache's own answers: a fetch at once after one that had the
	// collector sample finds that sample within fresh_within. Its fetches
	// are hostcache's alone, after the children's start: the agent's
	// answers over them split the client's time.
	if before, err = readProcCollector(); err != nil {
		return run, err
	}
	if figs, err = procFetch(bin, max(n/2, 1), limit/2, fetchList{"first", twinsOf(columns)},
		fetchList{"again", twinsOf(columns)}); err != nil {
		return run, err
	}
	run.cached = figs[1]
	if after, err = readProcCollector(); err != nil {
		return run, err
	}
	if n := after.answers - before.answers; n > 0 {
		run.answer = time.Duration(after.answerUS-before.answerUS) * time.Microsecond / time.Duration(n)
	}
	run.whole = meanOf(figs...)
	return run, nil
}

// meanOf is the mean latency of every fetch of figs.
func meanOf(figs ...fetchFigures) time.Duration {
	var sum time.Duration
	n := 0
	for _, f := range figs {
		sum += f.first
		for _, d := range f.rest {
			sum += d
		}
		n += 1 + len(f.rest)
	}
	if n == 0 {
		return 0
	}
	return sum / time.Duration(n)
}

// fetchList is one metric list procfetch fetches, by its label.
type fetchList struct {
	label string
	names []string
}

// procFetch runs procfetch over the lists and returns each one's figures
// in order.
func procFetch(bin string, n int, limit time.Duration, lists ...fetchList) ([]fetchFigures, error) {
	args := []string{"-n", strconv.Itoa(n), "-T", strconv.FormatFloat(limit.Seconds(), 'f', 0, 64)}
	for _, l := range lists {
		args = append(args, l.label+"="+strings.Join(l.names, ","))
	}
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, fmt.Errorf("procfetch: %v: %s", err, ee.Stderr)
		}
		return nil, fmt.Errorf("procfetch: %w", err)
	}
	figs, err := parseProcFetch(string(out))
	if err != nil {
		return nil, err
	}
	res := make([]fetchFigures, len(lists))
	for i, l := range lists {
		if figs[l.label] == nil {
			return nil, fmt.Errorf("procfetch printed no fetch of %s: %q", l.label, out)
		}
		res[i] = *figs[l.label]
	}
	return res, nil
}

// perFetch is an agent's CPU per fetch over a run: its CPU less its
// background at bgPerSec over the run's wall time, over its fetches.
func perFetch(cpu, bgPerSec, wall time.Duration, fetches int) time.Duration {
	if fetches == 0 {
		return 0
	}
	work := cpu - time.Duration(float64(bgPerSec)*wall.Seconds())
	return max(work, 0) / time.Duration(fetches)
}
