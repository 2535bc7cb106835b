package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// psColumns are the metrics pcp-ps fetches for every process, as
// pmdaproc names them; hostcache's twin of proc.X is hostcache.proc.X.
var psColumns = []string{
	"proc.psinfo.pid", "proc.psinfo.ppid", "proc.psinfo.cmd", "proc.psinfo.psargs", "proc.psinfo.sname",
	"proc.psinfo.start_time", "proc.psinfo.utime", "proc.psinfo.stime", "proc.psinfo.guest_time",
	"proc.psinfo.rss", "proc.psinfo.vsize", "proc.psinfo.priority", "proc.psinfo.rt_priority",
	"proc.psinfo.policy", "proc.psinfo.nice", "proc.psinfo.processor", "proc.psinfo.wchan_s",
	"proc.psinfo.ttyname", "proc.id.uid", "proc.id.uid_nm",
}

// twinColumns splits columns into those both agents serve (served holds
// every name pmcd knows) and those left out, in columns' order.
func twinColumns(columns []string, served map[string]bool) (both, left []string) {
	for _, name := range columns {
		if served[name] && served["hostcache."+name] {
			both = append(both, name)
		} else {
			left = append(left, name)
		}
	}
	return both, left
}

// servedNames lists the names below the given roots of the PMNS.
func servedNames(roots ...string) (map[string]bool, error) {
	out, err := exec.Command("pminfo", roots...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pminfo %s: %v: %s", strings.Join(roots, " "), err, out)
	}
	names := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			names[line] = true
		}
	}
	return names, nil
}

// procAgents are the PIDs of the two agents under test, pmcd's children.
type procAgents struct {
	hostcache, proc int
}

// findProcAgents finds pmdahostcache and pmdaproc among pmcd's children:
// a configuration where another program serves domain 3 (hostcache
// standing in for pmdaproc) or hostcache answers on a socket has neither
// as a child, and is not what this report compares.
func findProcAgents() (procAgents, error) {
	pmcd, err := pgrep("-x", "pmcd")
	if err != nil {
		return procAgents{}, fmt.Errorf("pmcd is not running: %w", err)
	}
	// pmcd starts its pipe agents through pmdaroot when that runs.
	var a procAgents
	parent := strconv.Itoa(pmcd)
	if root, err := pgrep("-P", parent, "-x", "pmdaroot"); err == nil {
		parent += "," + strconv.Itoa(root)
	}
	if a.hostcache, err = pgrep("-P", parent, "-x", "pmdahostcache"); err != nil {
		return a, fmt.Errorf("pmcd has no pmdahostcache child (installed on a pipe?): %w", err)
	}
	if a.proc, err = pgrep("-P", parent, "-x", "pmdaproc"); err != nil {
		return a, fmt.Errorf("pmcd has no pmdaproc child (is domain 3 pmdaproc?): %w", err)
	}
	return a, nil
}

// still fails when pmcd runs another hostcache or pmdaproc than a,
// restarted since (another client of pmcd reinstalled one): their
// figures would mix two processes. pmdaproc gone is no failure: pmcd
// drops an agent that outlasts its timeout, and the fetches' errors say so.
func (a procAgents) still() error {
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", a.proc)); err != nil {
		progress("pmdaproc (PID %d) has exited", a.proc)
	}
	now, err := findProcAgents()
	if err != nil && now.hostcache == a.hostcache && now.proc == 0 {
		return nil
	}
	if err == nil && now != a {
		err = fmt.Errorf("the agents restarted during the run: PIDs %d, %d, now %d, %d",
			a.hostcache, a.proc, now.hostcache, now.proc)
	}
	return err
}

// awaitProcSample waits until hostcache's proc collector has sampled: an
// agent just started by pmcd has yet to.
func awaitProcSample(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		f, err := readProcCollector()
		if err == nil && f.samples > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("hostcache's proc collector has not sampled in %s: %v", wait, err)
		}
		time.Sleep(time.Second)
	}
}

// unreadGroups are hostcache's process groups the bench does not fetch:
// each reads its files of every process while a client has read one of
// its metrics in the last idle_after (300 s), as Install's check of every
// metric does, and would sample beside the process collector, on the
// same grid, through the bench's fetches and idle windows.
var unreadGroups = []string{"proc_threads", "proc_cgroup", "proc_files", "proc_fd", "proc_smaps",
	"proc_environ", "proc_maps"}

// groupsIdleWait is idle_after's default (300 s) and two intervals: the
// longest a group read just before the bench takes to be slowed.
const groupsIdleWait = 300*time.Second + 2*procInterval

// awaitGroupsIdle waits up to wait for the groups the bench does not read
// to be slowed (hostcache.control.collector.idle), and returns how long
// it waited; an error names those still sampling.
func awaitGroupsIdle(wait time.Duration) (time.Duration, error) {
	start := time.Now()
	for {
		v, err := pminfoValues("hostcache.control.collector.idle")
		if err != nil {
			return time.Since(start), err
		}
		var busy []string
		for _, g := range unreadGroups {
			if idle, ok := v["hostcache.control.collector.idle"][g]; ok && idle != "1" {
				busy = append(busy, g)
			}
		}
		if len(busy) == 0 {
			return time.Since(start), nil
		}
		if time.Since(start) > wait {
			return time.Since(start), fmt.Errorf("hostcache's %s still sample after %s: a client reads them",
				strings.Join(busy, ", "), wait)
		}
		time.Sleep(5 * time.Second)
	}
}

// pgrep returns the oldest matching process.
func pgrep(args ...string) (int, error) {
	out, err := exec.Command("pgrep", append([]string{"-o"}, args...)...).Output()
	if err != nil {
		return 0, fmt.Errorf("pgrep %s: no process", strings.Join(args, " "))
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// pminfoValues fetches metrics with pminfo -f and returns their values by
// metric and instance name ("" for a metric without instances).
func pminfoValues(metrics ...string) (map[string]map[string]string, error) {
	out, err := exec.Command("pminfo", append([]string{"-f"}, metrics...)...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pminfo -f: %v: %s", err, out)
	}
	return parsePminfoValues(string(out)), nil
}

// parsePminfoValues reads pminfo -f's output: a metric's name on a line of
// its own, then "value V" or `inst [N or "NAME"] value V` lines.
func parsePminfoValues(out string) map[string]map[string]string {
	values := map[string]map[string]string{}
	var metric map[string]string
	for _, line := range strings.Split(out, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
		case !strings.HasPrefix(line, " "):
			metric = map[string]string{}
			values[trimmed] = metric
		case metric == nil:
		case strings.HasPrefix(trimmed, "value "):
			metric[""] = strings.TrimPrefix(trimmed, "value ")
		case strings.HasPrefix(trimmed, "inst ["):
			_, rest, _ := strings.Cut(trimmed, ` or "`)
			name, value, ok := strings.Cut(rest, `"] value `)
			if ok {
				metric[name] = value
			}
		}
	}
	return values
}

// procCollectorFigures are hostcache's own figures for its proc
// collector, and for the fetches it answered.
type procCollectorFigures struct {
	samples, fetchSamples, historyBytes, historySamples int64
	historySpan                                         int64 // seconds, every collector's at the least
	answers, answerUS                                   int64 // fetches answered, the time they took
}

// readProcCollector reads them through pmcd.
func readProcCollector() (procCollectorFigures, error) {
	const prefix = "hostcache.control.collector."
	v, err := pminfoValues(prefix+"samples", prefix+"fetch_samples", prefix+"history_bytes",
		prefix+"history_samples", "hostcache.control.history", "hostcache.control.fetch.answers",
		"hostcache.control.fetch.answer_time")
	if err != nil {
		return procCollectorFigures{}, err
	}
	var f procCollectorFigures
	for bucket, text := range v["hostcache.control.fetch.answers"] {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return f, fmt.Errorf("hostcache.control.fetch.answers[%s]: %w", bucket, err)
		}
		f.answers += n
	}
	for _, field := range []struct {
		metric, inst string
		into         *int64
	}{
		{prefix + "samples", "proc", &f.samples}, {prefix + "fetch_samples", "proc", &f.fetchSamples},
		{prefix + "history_bytes", "proc", &f.historyBytes},
		{prefix + "history_samples", "proc", &f.historySamples},
		{"hostcache.control.history", "", &f.historySpan},
		{"hostcache.control.fetch.answer_time", "", &f.answerUS},
	} {
		text, ok := v[field.metric][field.inst]
		if !ok {
			return f, fmt.Errorf("%s has no value for %q", field.metric, field.inst)
		}
		if *field.into, err = strconv.ParseInt(text, 10, 64); err != nil {
			return f, fmt.Errorf("%s: %w", field.metric, err)
		}
	}
	return f, nil
}
