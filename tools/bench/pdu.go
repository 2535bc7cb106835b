package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// pduResult is what one agent measured at the PDU level: service time of
// each FETCH (request written to reply read), and the agent's own CPU.
type pduResult struct {
	name           string
	metrics        int
	fetches        int
	p50, p99, p999 time.Duration
	cpuPerFetch    time.Duration // agent CPU per fetch, background subtracted
	pacedCPU       time.Duration // the same with fetches pacedGap apart
	bgPerSec       time.Duration // agent CPU per second while idle
	rssKB          int
}

// lookupPMIDs asks pmcd's namespace for the PMIDs of names.
func lookupPMIDs(names []string) ([]uint32, error) {
	out, err := exec.Command("pminfo", append([]string{"-m"}, names...)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pminfo -m: %v: %s", err, out)
	}
	var pmids []uint32
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		_, id, ok := strings.Cut(line, " PMID: ")
		parts := strings.Split(id, ".")
		if !ok || len(parts) != 3 {
			return nil, fmt.Errorf("pminfo -m: %q", line)
		}
		var n [3]uint64
		for i, p := range parts {
			n[i], _ = strconv.ParseUint(p, 10, 32)
		}
		pmids = append(pmids, uint32(n[0]<<22|n[1]<<10|n[2]))
	}
	return pmids, nil
}

// procCPU returns a process's CPU time, summed over its threads from
// /proc/<pid>/task/*/schedstat (nanoseconds, where /proc/<pid>/stat only
// has 10 ms ticks: too coarse for an agent that is idle most of the time).
func procCPU(pid int) time.Duration {
	return time.Duration(schedstatSum(pid, 0))
}

// procRuns returns how many times the process's threads have been put on
// a CPU (schedstat's timeslices).
func procRuns(pid int) int64 { return schedstatSum(pid, 2) }

// schedstatSum adds field i of every thread's schedstat.
func schedstatSum(pid, i int) int64 {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total int64
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(data)); len(f) > i {
			n, _ := strconv.ParseInt(f[i], 10, 64)
			total += n
		}
	}
	return total
}

// procRSS returns a process's resident set in KB.
func procRSS(pid int) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.Fields(v)[0])
			return kb
		}
	}
	return 0
}

// benchAgent starts an agent on pipes as pmcd would, measures its idle CPU,
// then replays n FETCHes of pmids and times each.
func benchAgent(name, path string, args []string, pmids []uint32, n int, idle time.Duration) (pduResult, error) {
	return benchAgentSettled(name, path, args, pmids, n, idle, time.Second)
}

// benchAgentSettled is benchAgent with settle between the warm-up and the
// idle measurement: on a big host an agent's first samples (every id and
// every value new) outlast the warm-up.
func benchAgentSettled(name, path string, args []string, pmids []uint32, n int, idle,
	settle time.Duration) (pduResult, error) {
	res := pduResult{name: name, metrics: len(pmids), fetches: n}
	a, err := driver.Start(path, args, nil)
	if err != nil {
		return res, err
	}
	defer a.Close(5 * time.Second)
	if err := a.Send((&pmda.Profile{}).Append(nil)); err != nil {
		return res, err
	}
	fetch := (&pmda.Fetch{PMIDs: pmids}).Append(nil)
	for i := 0; i < min(200, n); i++ { // warm up: first samples, buffers, caches
		if _, err := request(a, fetch); err != nil {
			return res, err
		}
	}
	// Idle CPU is the steady state: the end of a burst costs an agent a
	// one-time few hundred µs (the runtime settling its threads), which
	// would otherwise show as background.
	time.Sleep(settle)
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	time.Sleep(idle)
	idleCPU, idleWall := procCPU(a.Pid())-cpu0, time.Since(t0)
	res.bgPerSec = time.Duration(float64(idleCPU) / idleWall.Seconds())

	lat := make([]time.Duration, n)
	cpu0, t0 = procCPU(a.Pid()), time.Now()
	for i := range lat {
		if lat[i], err = request(a, fetch); err != nil {
			return res, err
		}
	}
	runCPU, runWall := procCPU(a.Pid())-cpu0, time.Since(t0)
	work := runCPU - time.Duration(float64(res.bgPerSec)*runWall.Seconds())
	res.cpuPerFetch = max(work, 0) / time.Duration(n)
	if res.pacedCPU, err = pacedFetches(a, fetch, res.bgPerSec, min(pacedN, n)); err != nil {
		return res, err
	}
	res.rssKB = procRSS(a.Pid())
	slices.Sort(lat)
	res.p50, res.p99, res.p999 = lat[n/2], lat[n*99/100], lat[n*999/1000]
	return res, nil
}

// Paced fetches: as pmcd forwards them from a few clients (pmlogger, pmie,
// a pmval or two), with the agent idle in between. Each then pays for
// waking a sleeping process, which back-to-back fetches hide.
const (
	pacedGap = 10 * time.Millisecond
	pacedN   = 300
)

// pacedFetches returns the agent's CPU per fetch when n fetches come
// pacedGap apart, its background CPU (bg per second) subtracted.
func pacedFetches(a *driver.Agent, fetch []byte, bg time.Duration, n int) (time.Duration, error) {
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	for i := 0; i < n; i++ {
		time.Sleep(pacedGap)
		if _, err := request(a, fetch); err != nil {
			return 0, err
		}
	}
	cpu, wall := procCPU(a.Pid())-cpu0, time.Since(t0)
	work := cpu - time.Duration(float64(bg)*wall.Seconds())
	return max(work, 0) / time.Duration(n), nil
}

// backgroundCPU runs a program that is not an agent (the ticker floor) for
// a while and returns its CPU per second.
func backgroundCPU(path string, args []string, d time.Duration) (time.Duration, error) {
	cpu, _, err := backgroundUse(path, args, nil, d)
	return cpu, err
}

// backgroundUse is backgroundCPU with extra environment variables, also
// returning how many times a second the program's threads were put on a
// CPU: the wake-ups that cost a mostly idle program most of its CPU.
func backgroundUse(path string, args, env []string, d time.Duration) (time.Duration, float64, error) {
	cmd := exec.Command(path, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	time.Sleep(1500 * time.Millisecond) // past its first tick
	cpu0, runs0, t0 := procCPU(cmd.Process.Pid), procRuns(cmd.Process.Pid), time.Now()
	time.Sleep(d)
	cpu, runs, wall := procCPU(cmd.Process.Pid)-cpu0, procRuns(cmd.Process.Pid)-runs0, time.Since(t0)
	return time.Duration(float64(cpu) / wall.Seconds()), float64(runs) / wall.Seconds(), nil
}

func request(a *driver.Agent, fetch []byte) (time.Duration, error) {
	t := time.Now()
	h, _, err := a.Request(fetch)
	d := time.Since(t)
	if err == nil && h.Type != pmda.TypeResult {
		err = fmt.Errorf("FETCH answered with %s", h.Type)
	}
	return d, err
}
