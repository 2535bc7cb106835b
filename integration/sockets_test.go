package integration

import (
	"fmt"
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
	sock := filepath.Join(dir, "hostcache.sock")
	cases := map[string]struct {
		flags, open string
		listening   func() bool
	}{
		"unix": {"-u " + sock, "open socket unix " + sock, func() bool { return unixListening(sock) }},
		"inet": {"-i " + port, "open socket inet " + port, func() bool { return tcpListening(port) }},
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
			// dbpmda connects once: wait until the agent listens.
			waitFor(t, "the agent to listen on its "+name+" socket", 10*time.Second, c.listening)
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

// unixListening says a socket listens at path (/proc/net/unix: flags
// 00010000 is __SO_ACCEPTCON, set by listen).
func unixListening(path string) bool {
	data, _ := os.ReadFile("/proc/net/unix")
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 8 && f[len(f)-1] == path && f[3] == "00010000" {
			return true
		}
	}
	return false
}

// tcpListening says a TCP socket listens on port (/proc/net/tcp and tcp6:
// state 0A is LISTEN, the local port in hex).
func tcpListening(port string) bool {
	n, _ := strconv.Atoi(port)
	local := fmt.Sprintf(":%04X", n)
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, _ := os.ReadFile(table)
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			if len(f) >= 4 && strings.HasSuffix(f[1], local) && f[3] == "0A" {
				return true
			}
		}
	}
	return false
}
