package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSocketModes runs the PMDA listening on a unix socket and on a TCP
// port, as pmcd.conf's socket lines would, and has dbpmda connect to each
// the way pmcd does. The agent must serve, then exit when the peer leaves.
func TestSocketModes(t *testing.T) {
	requirePCP(t)
	bin := buildPMDA(t)
	dir := t.TempDir()
	// A free port, not a fixed one: any client's connection (pmlogger's
	// to pmcd, say) may hold a fixed port as its local one.
	port := strconv.Itoa(freePort(t))
	cases := map[string]struct{ flags, open string }{
		"unix": {"-u " + filepath.Join(dir, "hostcache.sock"), "open socket unix " + filepath.Join(dir, "hostcache.sock")},
		"inet": {"-i " + port, "open socket inet " + port},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			logFile := filepath.Join(dir, name+".log")
			args := append(strings.Fields(c.flags), "-l", logFile, "-U", "root", "-d", "396")
			agent := exec.Command(bin, args...)
			if err := agent.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- agent.Wait() }()
			t.Cleanup(func() { agent.Process.Kill() })
			time.Sleep(500 * time.Millisecond) // let it listen, as pmcd waits before connecting
			out := runIn(t, repoRoot, c.open+"\ndesc hostcache.kernel.all.load\nfetch hostcache.kernel.all.load\nclose\n",
				"dbpmda", "-n", "root", "-e")
			if !strings.Contains(out, "Data Type: float") || !strings.Contains(out, "numval: 3") {
				t.Errorf("dbpmda over %s:\n%s", name, out)
			}
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("agent exit: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Error("agent did not exit after the peer closed")
			}
			if t.Failed() {
				log, _ := os.ReadFile(logFile)
				t.Logf("agent log:\n%s", log)
			}
		})
	}
}
