package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// idleAfter is the idle_after testIdleBackoff sets.
const idleAfter = 5 * time.Second

// testIdleBackoff: with idle_after set short, a collector nobody reads
// (ksm) is marked idle and samples less often; a fetch of one of its
// metrics gets values (not withheld as stale) and brings it back at once.
// The test reads ksm itself first and times the idleness from that read,
// so what earlier tests fetched, or how long ago, does not matter.
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
	setting := fmt.Sprintf("\nidle_after = %d\nidle_factor = 4\n", int(idleAfter.Seconds()))
	if err := os.WriteFile(conf, append(append([]byte{}, orig...), setting...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	idle := func() string { return values(t, "hostcache.control.collector.idle")["ksm"] }
	read := func() {
		t.Helper()
		if v := values(t, "hostcache.mem.ksm.run_state"); len(v) != 1 {
			t.Fatalf("an idle collector's metric has no value on the first fetch: %v", v)
		}
	}
	readAt := time.Now()
	read()
	waitFor(t, "ksm, read, active", 5*time.Second, func() bool { return idle() == "0" })
	waitFor(t, "ksm, unread, to slow down", 45*time.Second, func() bool { return idle() == "1" })
	if unread := time.Since(readAt); unread < idleAfter {
		t.Errorf("ksm slowed down %v after it was read, before idle_after (%v)", unread.Round(time.Millisecond), idleAfter)
	}
	samples := values(t, "hostcache.control.collector.samples")["ksm"]
	if busy := values(t, "hostcache.control.collector.idle")["cpu"]; busy != "0" {
		// The tests read hostcache.control.* (the engine's own), never cpu
		// here: cpu slows down too, which is right; say so rather than fail.
		t.Logf("cpu idle = %s: no client read it in the last 5 s either", busy)
	}
	read()
	waitFor(t, "ksm, read, back to its interval", 5*time.Second, func() bool { return idle() == "0" })
	t.Logf("ksm slowed down %v after the test read it (%s samples) and came back on a fetch",
		time.Since(readAt).Round(time.Second), samples)
}
