//go:build linux

package integration

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Churn: churnRate processes a second, each living churnLife, for
// churnFor.
const (
	churnRate = 200
	churnLife = 300 * time.Millisecond
	churnFor  = 60 * time.Second
	// churnAfter is when the churn starts after the checks' common start.
	churnAfter = 2 * time.Second
	// churnBatch processes start together, churnRate/churnBatch times a
	// second: a ticker at 5 ms falls behind on a loaded host.
	churnBatch = 10
	// churnGrowth bounds how much the agent's resident memory may grow
	// over the churn: the history of 12,000 short processes is held
	// within its budget, and an exited process's values go with it.
	churnGrowth = 48 << 20
)

// life is one churned process's span: from just before its start to
// just after its exit was seen.
type life struct{ start, end time.Time }

// lives records every churned process by PID.
type lives struct {
	mu      sync.Mutex
	pid     map[int][]life
	started int
}

// churn starts churnRate short processes a second, churnBatch every
// tick, until stop closes, and reaps them all before it returns.
func churn(stop <-chan struct{}, l *lives) {
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second * churnBatch / churnRate)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			wg.Wait()
			return
		case <-tick.C:
		}
		for range churnBatch {
			start := time.Now()
			cmd := exec.Command("sleep", strconv.FormatFloat(churnLife.Seconds(), 'f', 3, 64))
			if cmd.Start() != nil {
				continue
			}
			wg.Go(func() {
				cmd.Wait()
				l.mu.Lock()
				l.pid[cmd.Process.Pid] = append(l.pid[cmd.Process.Pid], life{start, time.Now()})
				l.started++
				l.mu.Unlock()
			})
		}
	}
}

// exitedBefore says whether pid is a churned process that had exited by
// t, with no other churned process of that PID alive then.
func (l *lives) exitedBefore(pid int, t time.Time) bool {
	ended := false
	for _, s := range l.pid[pid] {
		if !t.Before(s.start) && !t.After(s.end) {
			return false
		}
		ended = ended || s.end.Before(t)
	}
	return ended
}

// testProcessChurn starts and ends 200 processes a second for a minute
// beside the other checks under load, from churnAfter past their start, while one client that keeps its
// context fetches hostcache.proc.psinfo.utime and its rate every second.
// No fetch gives a value or a rate to a process that had exited before
// it; the agent's resident memory grows by at most churnGrowth, and the
// number of processes comes back to where it was.
func testProcessChurn(t *testing.T, load *underLoad) {
	client, err := ccBuild(t.TempDir(), "instfetch")
	if err != nil {
		t.Fatalf("instfetch: %v", err)
	}
	// Two seconds past the common start: the other checks' clients start
	// there, on a whole second's grid, and a host forking 200 processes a
	// second would start them late, off the phase they are judged at.
	time.Sleep(time.Until(load.t0.Add(churnAfter)))
	agent := besideAgentPID(t)
	rss0, n0 := vmRSS(t, agent), processCount(t)
	l := &lives{pid: map[int][]life{}}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { churn(stop, l); close(done) }()
	n := strconv.Itoa(int(churnFor / time.Second))
	out, err := run(t, churnFor+time.Minute, client, n, "1000",
		"hostcache.proc.psinfo.utime", "hostcache.rate.proc.psinfo.utime")
	close(stop)
	<-done
	if err != nil {
		t.Fatalf("instfetch: %v\n%s", err, out)
	}
	l.mu.Lock()
	started := l.started
	bad, seen := judgeChurn(t, out, l)
	l.mu.Unlock()
	rss1, n1 := vmRSS(t, agent), processCount(t)
	t.Logf("%d processes churned; fetches listed %d churned processes; %d values or rates of exited processes; "+
		"agent RSS %d -> %d kB; processes %d -> %d", started, seen, bad, rss0, rss1, n0, n1)
	if bad > 0 {
		logFreshness(t)
	}
	if started < churnRate*int(churnFor/time.Second)/2 {
		t.Errorf("only %d processes churned in %v", started, churnFor)
	}
	if seen == 0 {
		t.Error("no fetch listed a churned process")
	}
	if (rss1-rss0)*1024 > churnGrowth {
		t.Errorf("the agent's RSS grew %d kB over the churn, more than %d kB", rss1-rss0, churnGrowth>>10)
	}
	if n1 > n0+20 {
		t.Errorf("hostcache.proc.nprocs %d after the churn, %d before", n1, n0)
	}
}

// judgeChurn reads instfetch's lines and counts the values and rates of
// churned processes that had exited before the fetch (each an error),
// and the churned processes the fetches listed.
func judgeChurn(t *testing.T, out string, l *lives) (bad, seen int) {
	names := []string{"hostcache.proc.psinfo.utime", "hostcache.rate.proc.psinfo.utime"}
	badFetches := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		secs, _ := strconv.ParseFloat(f[0], 64)
		at := time.Unix(0, int64(secs*1e9))
		k, _ := strconv.Atoi(f[1])
		inFetch := 0
		for _, inst := range f[2:] {
			pid, _ := strconv.Atoi(inst)
			if _, churned := l.pid[pid]; churned {
				seen++
			}
			if l.exitedBefore(pid, at) {
				bad++
				inFetch++
				if bad <= 5 {
					t.Errorf("%s has a value for PID %d, which exited before the fetch at %s",
						names[k%2], pid, at.Format("15:04:05.000"))
				}
			}
		}
		if inFetch > 0 && badFetches < 10 {
			badFetches++
			t.Logf("the fetch at %s gave %s to %d exited processes of the %d it listed",
				at.Format("15:04:05.000"), names[k%2], inFetch, len(f)-2)
		}
	}
	return bad, seen
}

// logFreshness logs what the agent says of its answers' freshness: the
// served samples' ages and the proc collector's fetch samples and misses.
func logFreshness(t *testing.T) {
	t.Helper()
	t.Logf("hostcache.control.fresh.age (µs): %v", values(t, "hostcache.control.fresh.age"))
	for _, m := range []string{"duration", "fetch_samples", "fetch_misses", "extra_samples", "samples"} {
		t.Logf("hostcache.control.collector.%s of proc: %s", m, values(t, "hostcache.control.collector."+m)["proc"])
	}
}

// besideAgentPID is the PID of the agent beside the others, on
// hostcache's pipe.
func besideAgentPID(t *testing.T) int {
	t.Helper()
	out := strings.Fields(mustRun(t, 10*time.Second, "pgrep", "-f", "pmdahostcache -d 396"))
	if len(out) != 1 {
		t.Fatalf("pgrep finds %d agents on hostcache's pipe: %v", len(out), out)
	}
	pid, _ := strconv.Atoi(out[0])
	return pid
}

// vmRSS is a process's resident memory in kB.
func vmRSS(t *testing.T, pid int) int {
	t.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	t.Fatalf("no VmRSS for %d", pid)
	return 0
}

// processCount is hostcache.proc.nprocs.
func processCount(t *testing.T) int {
	t.Helper()
	n, _ := strconv.Atoi(values(t, "hostcache.proc.nprocs")[""])
	return n
}
