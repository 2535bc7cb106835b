package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// stuckProcRoot is a copy of the fixture /proc tree whose loadavg is a FIFO
// nobody writes: the load collector blocks opening it for good, as on a
// hung source.
func stuckProcRoot(t *testing.T) string {
	t.Helper()
	src := "../../testdata/proc-t0"
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || e.Name() == "loadavg" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dst, "loadavg"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func startStuckAgent(t *testing.T) (*driver.Agent, string) {
	t.Helper()
	// A race-built agent otherwise sleeps a second at exit, waiting for
	// late race reports: that is the detector's time, not the agent's.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	logFile := filepath.Join(dir, "agent.log")
	a, err := driver.Start(agentPath, []string{"-d", "396", "-l", logFile, "-U", "root", "-c", conf,
		"-r", stuckProcRoot(t), "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a, logFile
}

// waitExit waits up to d for the agent to exit by itself.
func waitExit(a *driver.Agent, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if a.Exited() {
			return true
		}
	}
	return a.Exited()
}

// checkCleanExit fails unless the agent exited with status 0 and logged no
// error or warning about its own shutdown.
func checkCleanExit(t *testing.T, a *driver.Agent, logFile string) {
	t.Helper()
	rest, err := a.Close(time.Second)
	if err != nil {
		t.Errorf("exit: %v", err)
	}
	if len(rest) != 0 {
		t.Errorf("%d bytes written on the way out", len(rest))
	}
	data, _ := os.ReadFile(logFile)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, "closed file") || strings.Contains(line, ") Error: ") {
			t.Errorf("log: %s", line)
		}
	}
}

// The agent exits within a second of pmcd closing its pipe, of SIGTERM
// while idle, and of SIGTERM right after back-to-back fetches, with status
// 0, even with a collector stuck on a read that never returns.
func TestShutdownNeverWaitsForACollector(t *testing.T) {
	fetch := (&pmda.Fetch{PMIDs: []uint32{pmidOf("hostcache.kernel.all.cpu.user")}}).Append(nil)
	burst := func(t *testing.T, a *driver.Agent) {
		for range 200 {
			if _, _, err := a.Request(fetch); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := map[string]func(t *testing.T, a *driver.Agent){
		"EOF": func(t *testing.T, a *driver.Agent) {
			burst(t, a)
			start := time.Now()
			if _, err := a.Close(time.Second); err != nil {
				t.Errorf("after EOF: %v (%v)", err, time.Since(start))
			}
		},
		"SIGTERM idle": func(t *testing.T, a *driver.Agent) {
			time.Sleep(300 * time.Millisecond)
			syscall.Kill(a.Pid(), syscall.SIGTERM)
			if !waitExit(a, time.Second) {
				t.Error("still running a second after SIGTERM")
			}
		},
		"SIGTERM after a burst": func(t *testing.T, a *driver.Agent) {
			burst(t, a)
			syscall.Kill(a.Pid(), syscall.SIGTERM)
			if !waitExit(a, time.Second) {
				t.Error("still running a second after SIGTERM")
			}
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			a, logFile := startStuckAgent(t)
			c(t, a)
			checkCleanExit(t, a, logFile)
			if t.Failed() {
				data, _ := os.ReadFile(logFile)
				t.Logf("agent log:\n%s", data)
			}
		})
	}
}
