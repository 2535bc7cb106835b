package integration

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// testIdleBackoff: with idle_after set short, a collector nobody reads
// (ksm: none of the tests before fetch it for long) is marked idle and
// samples less often; a fetch of one of its metrics gets values (not
// withheld as stale) and brings it back at once.
func testIdleBackoff(t *testing.T, pmdaDir string) {
	conf := filepath.Join(pmdaDir, "hostcache.conf")
	orig, err := os.ReadFile(conf)
	if err != nil {
		t.Fatalf("the installed configuration: %v", err)
	}
	pid := agentPid(t)
	t.Cleanup(func() {
		os.WriteFile(conf, orig, 0o644)
		syscall.Kill(pid, syscall.SIGHUP)
	})
	if err := os.WriteFile(conf, append(append([]byte{}, orig...), "\nidle_after = 5\nidle_factor = 4\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	idle := func() string { return values(t, "hostcache.control.collector.idle")["ksm"] }
	waitFor(t, "ksm, unread, to slow down", 45*time.Second, func() bool { return idle() == "1" })
	samples := values(t, "hostcache.control.collector.samples")["ksm"]
	if busy := values(t, "hostcache.control.collector.idle")["cpu"]; busy != "0" {
		// The tests read hostcache.control.* (the engine's own), never cpu
		// here: cpu slows down too, which is right; say so rather than fail.
		t.Logf("cpu idle = %s: no client read it in the last 5 s either", busy)
	}
	if v := values(t, "hostcache.mem.ksm.run_state"); len(v) != 1 {
		t.Fatalf("an idle collector's metric has no value on the first fetch: %v", v)
	}
	waitFor(t, "ksm, read, back to its interval", 5*time.Second, func() bool { return idle() == "0" })
	t.Logf("ksm slowed down after %s samples and came back on a fetch", samples)
}
