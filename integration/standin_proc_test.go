//go:build linux

package integration

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// testBothStandIns switches from standing in for pmdalinux to standing
// in for both with Install -S linux,proc, inside TestStandIn's switch: one
// pmdahostcache process answers domains 3, 60 and hostcache's, and
// neither pmdalinux nor pmdaproc runs. A client as nobody reads no other
// user's io, and a TCP client no per-process value.
func testBothStandIns(t *testing.T, pmdaDir string, logger *procLogger) {
	logger.phase("the stand-in for both")
	runIn(t, pmdaDir, "", "./Install", "-S", "linux,proc")
	conf := readPMCDConf(t)
	if e := domainEntry(conf, "60"); !strings.Contains(e, "socket") {
		t.Errorf("pmcd.conf's domain 60 standing in for both: %q", e)
	}
	if e := domainEntry(conf, "3"); !strings.Contains(e, "pmdahostcache") {
		t.Errorf("pmcd.conf's domain 3 standing in for both: %q", e)
	}
	waitFor(t, "kernel.all.load and proc.nprocs from the stand-in", 30*time.Second, func() bool {
		return len(values(t, "kernel.all.load")) == 3 && len(values(t, "proc.nprocs")) == 1 &&
			len(values(t, "hostcache.kernel.all.load")) == 3 && len(values(t, "proc.psinfo.pid")) > 0
	})
	agents, _ := run(t, 10*time.Second, "pgrep", "-x", "pmdahostcache|pmdalinux|pmdaproc")
	if n := len(strings.Fields(agents)); n != 1 {
		out, _ := run(t, 10*time.Second, "pgrep", "-a", "pmdahostcache|pmdalinux|pmdaproc")
		t.Errorf("%d agent processes standing in for both, want one pmdahostcache:\n%s", n, out)
	}
	t.Run("process access standing in for pmdaproc", func(t *testing.T) { checkProcAccess(t, "proc.", false) })
	t.Run("hotproc standing in for pmdaproc", func(t *testing.T) {
		defer resetHotproc(t, "")
		checkHotproc(t, "", false)
	})
}

// compareProcTools holds PCP's process tools with the stand-in for
// pmdaproc to what they printed with pmdaproc, on the processes both runs
// list: pcp-ps's columns, pcp-pidstat's users and commands, pcp-atop's
// process lines (-P PRG). Where pmdaproc 6.0.3 prints a wrong value the
// README names (the priority column, the real group id), the column is
// not compared; kernel threads that renamed themselves between the runs
// and zombies neither. The :proc-* pmrep views (run by TestStandIn with
// every view) print no new complaint, and figures where they printed
// figures.
func compareProcTools(t *testing.T, views []pmrepView, before, after map[string]toolOutput) {
	t.Run("pcp-ps", func(t *testing.T) { comparePs(t, before["pcp-ps"], after["pcp-ps"]) })
	t.Run("pcp-pidstat", func(t *testing.T) { comparePidstat(t, before["pcp-pidstat"], after["pcp-pidstat"]) })
	t.Run("pcp-atop", func(t *testing.T) { compareAtop(t, before["pcp-atop"], after["pcp-atop"]) })
	t.Run(":proc-* views", func(t *testing.T) { compareViews(t, "pmdaproc", procViews(views), before, after) })
}

// procViews are PCP's :proc-* pmrep views that read pmdaproc's metrics
// (proc-net and proc-net-ext read bcc's alone).
func procViews(views []pmrepView) []pmrepView {
	var out []pmrepView
	for _, v := range views {
		if strings.HasPrefix(v.name, "proc-") && !strings.HasPrefix(v.name, "proc-net") {
			out = append(out, v)
		}
	}
	return out
}

// domainEntry is pmcd.conf's entry for a domain, "" for none.
func domainEntry(conf, domain string) string {
	for _, line := range strings.Split(conf, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			break
		}
		if f := strings.Fields(line); len(f) > 1 && f[1] == domain {
			return line
		}
	}
	return ""
}

// procToolJobs are PCP's process tools, each run once.
func procToolJobs() []clientJob {
	return []clientJob{
		{name: "pcp-ps", args: []string{"pcp", "ps", "-o", "all"}},
		{name: "pcp-pidstat", args: []string{"pcp", "pidstat", "-t", "1", "-s", "2"}},
		{name: "pcp-atop", args: []string{"pcp", "atop", "-P", "PRG", "1", "2"}},
	}
}

// psRow is one process of pcp-ps -o all: its columns by header.
type psRow map[string]string

// psRows reads pcp-ps -o all's rows (tab-separated after the time stamp)
// by PID.
func psRows(t *testing.T, o toolOutput) map[string]psRow {
	t.Helper()
	if o.failed() {
		t.Fatalf("pcp-ps: %s", o.complaint())
	}
	var head []string
	rows := map[string]psRow{}
	for _, line := range strings.Split(o.stdout, "\n") {
		cells := tabCells(line)
		if len(cells) > 0 && cells[0] == "Timestamp" {
			head = cells
			continue
		}
		if head == nil || len(cells) != len(head) || !rowTimeStamp.MatchString(cells[0]) {
			continue
		}
		row := psRow{}
		for i, h := range head {
			row[h] = cells[i]
		}
		rows[row["PID"]] = row
	}
	if len(rows) == 0 {
		t.Fatalf("pcp-ps printed no process:\n%s", o.stdout)
	}
	return rows
}

// tabCells splits a line at tabs, and its first cell (the time stamp
// and the first column, which spaces part) at spaces, dropping empty
// cells.
func tabCells(line string) []string {
	first, rest, _ := strings.Cut(line, "\t")
	out := strings.Fields(first)
	for _, c := range strings.Split(rest, "\t") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// renamed says whether a kernel thread's name changed between the runs:
// a kworker names the work it does last.
func renamed(before, after string) bool {
	return before != after && strings.Contains(before, "kworker/") && strings.Contains(after, "kworker/")
}

// comparePs compares pcp-ps's user, parent, start and command columns on
// the processes both runs list, zombies left out: a zombie has no command
// line, and its name is what the agent made of it when it first saw it. Its PRI column is not compared: pmdaproc
// 6.0.3 gives the real-time priority as proc.psinfo.priority.
func comparePs(t *testing.T, before, after toolOutput) {
	b, a := psRows(t, before), psRows(t, after)
	compared := 0
	for pid, rb := range b {
		ra, ok := a[pid]
		if !ok || renamed(rb["Command"], ra["Command"]) || rb["S"] == "Z" || ra["S"] == "Z" {
			continue
		}
		compared++
		for _, col := range []string{"USER", "PPID", "STARTED", "Command"} {
			if rb[col] != ra[col] {
				t.Errorf("pcp-ps, PID %s, %s: pmdaproc %q, the stand-in %q", pid, col, rb[col], ra[col])
			}
		}
	}
	if compared < 20 {
		t.Errorf("pcp-ps: only %d processes in both runs", compared)
	}
	t.Logf("pcp-ps: %d processes compared (USER, PPID, STARTED, Command)", compared)
}

// pidstatRow is pcp-pidstat's row: time, UID, PID, usr, system, guest,
// %CPU, CPU and Command, split by tabs.
var pidstatRow = regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d[ \t]+(\d+)[ \t]+(\d+)([ \t]+\S+){5}[ \t]+(.*?)[ \t]*$`)

// comparePidstat compares pcp-pidstat's user and command on the processes
// both runs list.
func comparePidstat(t *testing.T, before, after toolOutput) {
	rows := func(o toolOutput) map[string][2]string {
		if o.failed() {
			t.Fatalf("pcp-pidstat: %s", o.complaint())
		}
		out := map[string][2]string{}
		for _, m := range pidstatRow.FindAllStringSubmatch(o.stdout, -1) {
			out[m[2]] = [2]string{m[1], m[4]}
		}
		return out
	}
	b, a := rows(before), rows(after)
	compared := 0
	for pid, rb := range b {
		if ra, ok := a[pid]; ok && !renamed(rb[1], ra[1]) {
			compared++
			if rb != ra {
				t.Errorf("pcp-pidstat, PID %s: pmdaproc %q, the stand-in %q", pid, rb, ra)
			}
		}
	}
	if compared < 20 {
		t.Errorf("pcp-pidstat: only %d processes in both runs:\n%s", compared, lastLines(after.stdout, 5))
	}
	t.Logf("pcp-pidstat: %d processes compared (UID, Command)", compared)
}

// atopLine is pcp-atop's PRG line (atop's parseable output): host, epoch,
// date, time, interval, PID, (name), state, real uid, real gid, TGID,
// threads, exit code, start time, (command line) and parent.
var atopLine = regexp.MustCompile(`(?m)^PRG \S+ \d+ \S+ \S+ \d+ (\d+) \((.*?)\) (\S) (\d+) (\d+) (\d+) (\d+) \S+ (\d+) \((.*)\) (\d+)`)

// compareAtop compares pcp-atop's process lines on the processes both
// runs list, zombies left out: name, real uid, TGID, start, command line
// and parent. The real gid is not compared: pmdaproc 6.0.3 gives the uid
// as proc.id.gid. pcp-atop stores proc.control.perclient.threads and
// lists each thread: on the threads both runs list, the name and the
// TGID must be the same, and the stand-in must list threads where
// pmdaproc did.
func compareAtop(t *testing.T, before, after toolOutput) {
	b, bThreads := atopRows(before)
	a, aThreads := atopRows(after)
	compared := 0
	for pid, rb := range b {
		ra, ok := a[pid]
		if !ok || renamed(rb[0], ra[0]) || renamed(rb[4], ra[4]) {
			continue
		}
		compared++
		if strings.Join(rb, "|") != strings.Join(ra, "|") {
			t.Errorf("pcp-atop, PID %s: pmdaproc %q, the stand-in %q", pid, rb, ra)
		}
	}
	if compared < 20 {
		t.Errorf("pcp-atop: only %d processes in both runs: %s\n%s", compared, after.complaint(), lastLines(after.stdout, 5))
	}
	threads := 0
	for tid, tb := range bThreads {
		ta, ok := aThreads[tid]
		if !ok || renamed(tb[0], ta[0]) {
			continue
		}
		threads++
		if tb[1] != ta[1] {
			t.Errorf("pcp-atop, thread %s: TGID %s with pmdaproc, %s with the stand-in", tid, tb[1], ta[1])
		}
	}
	if len(bThreads) > 0 && threads == 0 {
		t.Errorf("pcp-atop lists %d thread lines with pmdaproc, none of them with the stand-in (%d thread lines)",
			len(bThreads), len(aThreads))
	}
	t.Logf("pcp-atop: %d processes compared; thread lines: %d with pmdaproc, %d with the stand-in, %d in both compared",
		compared, len(bThreads), len(aThreads), threads)
}

// atopRows are pcp-atop's process lines by PID (name, real uid, TGID,
// start, command line, parent) and its thread lines by TID (name, TGID).
func atopRows(o toolOutput) (procs, threads map[string][]string) {
	procs, threads = map[string][]string{}, map[string][]string{}
	for _, m := range atopLine.FindAllStringSubmatch(o.stdout, -1) {
		switch {
		case m[1] == "0":
			// A task that ended in the interval: atop knows no id of it.
		case m[1] != m[6]:
			threads[m[1]] = []string{m[2], m[6]}
		case m[3] != "Z":
			procs[m[1]] = []string{m[2], m[4], m[6], m[8], m[9], m[10]}
		}
	}
	return procs, threads
}
