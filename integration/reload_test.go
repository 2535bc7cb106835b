package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// agentPid finds the running agent: the pmdahostcache process pmcd started.
func agentPid(t *testing.T) int {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "pmdahostcache" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		return pid
	}
	t.Fatal("no pmdahostcache process")
	return 0
}

// testReload: SIGHUP to the agent pmcd runs re-reads its installed
// configuration. A good file takes effect in the same process with its
// history and rates intact; a bad one is refused with file:line in the
// agent's log and the running interval stays; the original file, reloaded,
// brings the default back.
func testReload(t *testing.T, pmdaDir, logDir string) {
	conf := filepath.Join(pmdaDir, "hostcache.conf")
	orig, err := os.ReadFile(conf)
	if err != nil {
		t.Fatalf("the installed configuration: %v", err)
	}
	pid := agentPid(t)
	hup := func(text string) {
		t.Helper()
		if err := os.WriteFile(conf, append(append([]byte{}, orig...), text...), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		os.WriteFile(conf, orig, 0o644)
		syscall.Kill(pid, syscall.SIGHUP)
	})
	interval := func(want string) func() bool {
		return func() bool { return values(t, "hostcache.control.interval")[""] == want }
	}
	samples := func() int {
		n, _ := strconv.Atoi(values(t, "hostcache.control.collector.samples")["cpu"])
		return n
	}
	before := samples()

	hup("\ninterval = 2000\n")
	waitFor(t, "the reloaded interval of 2000 ms", 10*time.Second, interval("2000"))
	if after := samples(); after < before {
		t.Errorf("cpu samples went from %d to %d: the collector was rebuilt", before, after)
	}
	if _, ok := values(t, "hostcache.rate.kernel.all.intr")[""]; !ok {
		t.Error("no rate right after the reload: the history was lost")
	}

	bad := "\ninterval = 2000\ninterval = 99\n"
	line := strings.Count(string(orig)+bad, "\n")
	hup(bad)
	want := fmt.Sprintf("%s:%d: interval 99 ms outside", conf, line)
	waitFor(t, "the log naming "+want, 10*time.Second, func() bool {
		logged, _ := os.ReadFile(filepath.Join(logDir, "hostcache.log"))
		return strings.Contains(string(logged), want)
	})
	if got := values(t, "hostcache.control.interval")[""]; got != "2000" {
		t.Errorf("after a bad file the interval is %s, want the running 2000", got)
	}

	hup("")
	waitFor(t, "the default interval back", 10*time.Second, interval("1000"))
	if now := agentPid(t); now != pid {
		t.Errorf("the agent was restarted (pid %d, then %d)", pid, now)
	}
}
