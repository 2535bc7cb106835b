//go:build linux

package integration

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testProcTwins holds hostcache.proc.* to pmdaproc's proc.* on this host:
// each twin's type, semantics and units are pmdaproc's; the processes
// both list have the same instance names and the same pid, ppid, uid,
// command and nice; a process that burns CPU gains the same utime in
// both; and each client gets no more than pmdaproc would give it.
func testProcTwins(t *testing.T) {
	if _, err := exec.LookPath("runuser"); err != nil {
		t.Skip("no runuser")
	}
	n := compareTwinDescs(t, "proc")
	t.Logf("%d hostcache.proc twins of pmdaproc's %d metrics", n, len(pmdaprocNames(t)))
	compareProcValues(t)
	t.Run("utime", testProcUtime)
	t.Run("access", testProcAccess)
}

// compareTwinDescs holds each hostcache.ROOT.X to pmdaproc's ROOT.X:
// the same descriptor, less the ids. It returns how many it held.
func compareTwinDescs(t *testing.T, root string) int {
	var names []string
	for _, n := range strings.Fields(mustRun(t, time.Minute, "pminfo", "hostcache."+root)) {
		names = append(names, n, strings.TrimPrefix(n, "hostcache."))
	}
	got := listMetrics(t, names)
	for i := 0; i < len(names); i += 2 {
		ours, theirs := got[names[i]], got[names[i+1]]
		if a, b := descWithoutIDs(ours.desc), descWithoutIDs(theirs.desc); a != b || a == "" {
			t.Errorf("%s is %q, pmdaproc's %s %q", names[i], a, names[i+1], b)
		}
	}
	return len(names) / 2
}

// descWithoutIDs is a pminfo -d description without the PMID and the
// instance domain's number, which differ between the twins by design.
func descWithoutIDs(desc string) string {
	lines := strings.Split(desc, "\n")
	if len(lines) < 2 {
		return ""
	}
	return regexp.MustCompile(`InDom: \S+ \S+`).ReplaceAllString(strings.Join(lines[1:], "\n"), "InDom:")
}

// pmdaprocNames lists pmdaproc's own names (PMIDs in domain 3).
func pmdaprocNames(t *testing.T) []string {
	var out []string
	for _, line := range strings.Split(mustRun(t, time.Minute, "pminfo", "-m", "proc"), "\n") {
		if f := strings.Fields(line); len(f) == 3 && strings.HasPrefix(f[2], "3.") {
			out = append(out, f[0])
		}
	}
	return out
}

// compareProcValues fetches both agents' discrete values and compares
// them on the processes both list with one name.
func compareProcValues(t *testing.T) {
	metrics := []string{"psinfo.pid", "psinfo.ppid", "id.uid", "psinfo.cmd", "psinfo.nice", "id.uid_nm"}
	compared := 0
	for _, m := range metrics {
		ours, theirs := values(t, "hostcache.proc."+m), values(t, "proc."+m)
		for inst, v := range theirs {
			// A kworker names its last work in its comm, which moves
			// between the two agents' reads.
			if w, ok := ours[inst]; ok && !renamed(v, w) {
				compared++
				if v != w {
					t.Errorf("%s of %q: pmdaproc %s, hostcache %s", m, inst, v, w)
				}
			}
		}
		if len(ours) == 0 || len(theirs) == 0 {
			t.Errorf("%s: hostcache lists %d processes, pmdaproc %d", m, len(ours), len(theirs))
		}
	}
	t.Logf("%d values of %d metrics compared on the processes both list", compared, len(metrics))
}

// testProcUtime burns CPU in a process of its own for two seconds and
// reads its utime from both agents before and after.
func testProcUtime(t *testing.T) {
	burn := exec.Command("sh", "-c", "while :; do :; done")
	if err := burn.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed and reaped: a zombie left behind would be named otherwise by
	// an agent that first sees it dead ("(sh)").
	defer func() { burn.Process.Kill(); burn.Wait() }()
	pid := strconv.Itoa(burn.Process.Pid)
	utimes := func() (ours, theirs int) {
		t.Helper()
		out := mustRun(t, 20*time.Second, "pmval", "-r", "-s", "1", "-i", pid, "-f", "0",
			"hostcache.proc.psinfo.utime")
		out2 := mustRun(t, 20*time.Second, "pmval", "-r", "-s", "1", "-i", pid, "-f", "0", "proc.psinfo.utime")
		return lastNumber(t, out), lastNumber(t, out2)
	}
	// Listed first: under load the sample an instance request asks for
	// may miss fetch_wait, and the request is answered from the one before.
	name := fmt.Sprintf("%06d sh", burn.Process.Pid)
	waitFor(t, "the busy loop listed", 20*time.Second, func() bool {
		_, ok := values(t, "hostcache.proc.psinfo.pid")[name]
		return ok
	})
	o0, p0 := utimes()
	time.Sleep(2 * time.Second)
	o1, p1 := utimes()
	ours, theirs := o1-o0, p1-p0
	t.Logf("a busy loop's utime grew %d ms (hostcache) and %d ms (pmdaproc) in about 2 s", ours, theirs)
	if ours < 1000 || ours > 3500 || theirs-ours > 400 || ours-theirs > 400 {
		t.Errorf("utime grew %d ms in hostcache, %d ms in pmdaproc", ours, theirs)
	}
}

// lastNumber is the last integer of pmval's output.
func lastNumber(t *testing.T, out string) int {
	t.Helper()
	nums := regexp.MustCompile(`(?m)^\s*(\d+)\s*$`).FindAllStringSubmatch(out, -1)
	if len(nums) == 0 {
		t.Fatalf("no value in:\n%s", out)
	}
	n, _ := strconv.Atoi(nums[len(nums)-1][1])
	return n
}

// testProcAccess checks hostcache.proc.* against pmdaproc's proc.*
// (checkProcAccess).
func testProcAccess(t *testing.T) { checkProcAccess(t, "hostcache.proc.", true) }

// checkProcAccess starts a process as nobody and asks as nobody over the
// local socket, and over TCP (pmcd then names no user), for the metrics
// below prefix. Nobody lists every process but reads no io that
// pmdaproc, answering as nobody, would not give it; when the agent can
// read the io of nobody's process (it runs as root when it stands in),
// nobody gets that; the TCP client gets no per-process value at all.
// With pmdaproc beside, its proc.io.rchar is counted as well.
func checkProcAccess(t *testing.T, prefix string, pmdaprocBeside bool) {
	sleeper := exec.Command("runuser", "-u", "nobody", "--", "sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	var own string
	waitFor(t, "nobody's sleep to be listed", 20*time.Second, func() bool {
		out, _ := run(t, 10*time.Second, "pgrep", "-u", "nobody", "-x", "sleep")
		for _, pid := range strings.Fields(out) {
			n, _ := strconv.Atoi(pid)
			own = fmt.Sprintf("%06d sleep", n)
			if _, ok := values(t, prefix+"psinfo.pid")[own]; ok {
				return true
			}
		}
		return false
	})
	nobody := func(metric string) map[string]string {
		out, _ := run(t, 20*time.Second, "runuser", "-u", "nobody", "--", "pminfo", "-f", metric)
		vals := map[string]string{}
		for _, m := range valueLine.FindAllStringSubmatch(out, -1) {
			vals[m[2]] = m[3]
		}
		return vals
	}
	ours, asRoot := nobody(prefix+"io.rchar"), values(t, prefix+"io.rchar")
	var theirs map[string]string
	if pmdaprocBeside {
		theirs = nobody("proc.io.rchar")
	}
	// The kernel gives pmdaproc, answering as nobody, the io of nobody's
	// own processes alone (each pminfo above is one of them).
	euids := values(t, prefix+"id.euid")
	for inst := range ours {
		if euid, listed := euids[inst]; listed && euid != "65534" {
			t.Errorf("nobody reads the io of %q, of user %s, which pmdaproc would not give it", inst, euid)
		}
	}
	if _, read := asRoot[own]; read {
		if _, ok := ours[own]; !ok {
			t.Errorf("nobody gets no io of its own process %q", own)
		}
	}
	if len(nobody(prefix+"psinfo.pid")) == 0 {
		t.Error("nobody lists no process")
	}
	out, _ := run(t, 20*time.Second, "pminfo", "-h", "localhost", "-f", prefix+"psinfo.pid")
	if valueLine.MatchString(out) {
		t.Errorf("a client over TCP, whom pmcd names no user for, gets per-process values:\n%s", out)
	}
	t.Logf("%sio.rchar: root reads %d processes from hostcache; nobody %d from hostcache, %d from pmdaproc",
		prefix, len(asRoot), len(ours), len(theirs))
}
