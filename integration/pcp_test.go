// Package integration runs pmdahostcache under the real pmcd, installed by
// our own Install, and checks it with PCP's own clients.
package integration

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// repoRoot is where the PMDA's sources and scripts live.
var repoRoot, _ = filepath.Abs("..")

// requirePCP skips when PCP cannot be driven here, except in CI, where an
// integration test that does not run is a failure.
func requirePCP(t *testing.T) {
	t.Helper()
	var missing string
	switch {
	case testing.Short():
		missing = "-short given"
	case os.Geteuid() != 0:
		missing = "Install and Remove need root"
	case !have("pminfo") || !fileExists("/etc/pcp.env"):
		missing = "PCP is not installed (make install sets it up)"
	default:
		if _, err := run(t, 10*time.Second, "pmprobe", "pmcd.version"); err != nil {
			missing = "pmcd is not running: " + err.Error()
		}
	}
	if missing != "" {
		testenv.SkipOutsideCI(t, missing)
	}
}

// requireTools skips when a tool a test drives is not installed, except in
// CI: make test installs every one (scripts/test-deps.sh).
func requireTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if !have(tool) {
			testenv.SkipOutsideCI(t, tool+" is not installed (make test as root installs it: scripts/test-deps.sh)")
		}
	}
}

// skipOutsideCI is testenv.SkipOutsideCI under its old name, kept only
// while standin_switch_test.go still calls it.
func skipOutsideCI(t *testing.T, reason string) {
	t.Helper()
	testenv.SkipOutsideCI(t, reason)
}

func have(cmd string) bool { _, err := exec.LookPath(cmd); return err == nil }

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// run runs a command with PCP's environment and returns stdout+stderr.
func run(t *testing.T, timeout time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("%s timed out after %v", name, timeout)
	}
	return string(out), err
}

// mustRun fails the test when the command fails.
func mustRun(t *testing.T, timeout time.Duration, name string, args ...string) string {
	t.Helper()
	out, err := run(t, timeout, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// pcpVar reads one of PCP's locations from /etc/pcp.conf.
func pcpVar(t *testing.T, name string) string {
	t.Helper()
	out := pcpEnv(name)
	if out == "" {
		t.Fatalf("%s not set by /etc/pcp.env", name)
	}
	return out
}

// buildPMDA builds the daemon as users run it. The race detector watches
// the real process in cmd/pmdahostcache's tests, which run it on pipes as
// pmcd does; here the checks of timing under load measure the agent users
// get, and the suite's two processors are not spent on the detector.
func buildPMDA(t *testing.T) string {
	t.Helper()
	// HOSTCACHE_TEST_AGENT runs the tests against a binary built elsewhere
	// (an older commit, to measure a change against).
	if bin := os.Getenv("HOSTCACHE_TEST_AGENT"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "pmdahostcache")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/pmdahostcache")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building: %v\n%s", err, out)
	}
	return bin
}

func installed() bool {
	out, err := exec.Command("pmprobe", "hostcache.control.interval").CombinedOutput()
	return err == nil && !strings.Contains(string(out), "Unknown")
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var valueLine = regexp.MustCompile(`(?m)^\s+(?:inst \[(\d+) or "([^"]*)"\] )?value (.*)$`)

// values fetches one metric with pminfo -f: instance name ("" for a
// singular metric) to the printed value.
func values(t *testing.T, metric string) map[string]string {
	t.Helper()
	out := mustRun(t, 20*time.Second, "pminfo", "-f", metric)
	vals := map[string]string{}
	for _, m := range valueLine.FindAllStringSubmatch(out, -1) {
		vals[m[2]] = m[3]
	}
	return vals
}

// TestPCP installs the PMDA with our Install, drives it with PCP's clients
// and removes it again. The steps share one installation and run in
// order, but for the MMV check, which runs beside the others
// (testSideBySide), and the checks over real seconds, which run side by
// side under one load (testUnderLoad).
func TestPCP(t *testing.T) {
	requirePCP(t)
	bin := buildPMDA(t)
	pmdaDir := filepath.Join(pcpVar(t, "PCP_PMDAS_DIR"), "hostcache")
	logDir := filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd")
	wasInstalled := installed()
	previous := filepath.Join(t.TempDir(), "pmdahostcache.previous")
	if wasInstalled {
		// Put the administrator's own binary back afterwards, not ours.
		if data, err := os.ReadFile(filepath.Join(pmdaDir, "pmdahostcache")); err == nil {
			os.WriteFile(previous, data, 0o755)
		}
	}
	pmcdLogStart := fileSize(filepath.Join(logDir, "pmcd.log"))

	out := mustRun(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), bin)
	if !regexp.MustCompile(`\d+ metrics and \d+ values`).MatchString(out) {
		t.Fatalf("Install did not report metrics:\n%s", out)
	}
	removed := false
	t.Cleanup(func() {
		if !removed {
			run(t, 2*time.Minute, filepath.Join(repoRoot, "scripts", "remove-pmda.sh"))
		}
		if wasInstalled {
			run(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), previous)
		}
	})
	// Rates and utilisation need two samples of every collector; those
	// that read names once a minute (uname) need only their first, as do
	// those slowed for want of readers (the process groups).
	waitForCollectors(t)

	t.Run("pmstore", func(t *testing.T) { testPmstore(t) })
	t.Run("side by side", func(t *testing.T) { testSideBySide(t, pmdaDir) })
	t.Run("pmie asks for a recording", func(t *testing.T) { testPmieRecords(t) })
	t.Run("example configuration", func(t *testing.T) { testExampleConfig(t, pmdaDir) })
	t.Run("logs clean", func(t *testing.T) { testLogs(t, logDir, pmcdLogStart) })
	// After the log check: a bad file is refused with an error, on purpose.
	t.Run("SIGHUP reload", func(t *testing.T) { testReload(t, pmdaDir, logDir) })
	t.Run("sources nobody reads slow down", func(t *testing.T) { testIdleBackoff(t, pmdaDir) })
	// After the log check: pmcd logs the killed agent's end.
	t.Run("restart keeps instance ids", func(t *testing.T) { testRestartIDs(t) })
	t.Run("Remove", func(t *testing.T) {
		removed = true
		testRemove(t)
	})
}

// testClients reads the agent with PCP's clients, in three lanes side by
// side: those that fetch every metric, those that hold every metric to
// its twin, and those that log, report or serve a few. The fleet's
// recording takes its turn with load's others.
func testClients(t *testing.T, pmdaDir string, load *underLoad) {
	t.Run("twins", func(t *testing.T) {
		t.Parallel()
		t.Run("pmdalinux twins", func(t *testing.T) { testTwins(t) })
		t.Run("labels as pmdalinux's", func(t *testing.T) { testTwinLabels(t) })
	})
	t.Run("every metric", func(t *testing.T) {
		t.Parallel()
		t.Run("pminfo", func(t *testing.T) { testPminfo(t) })
		t.Run("what PCP's tools use", func(t *testing.T) { testToolCoverage(t) })
		t.Run("pmval", func(t *testing.T) { testPmval(t) })
		t.Run("dbpmda", func(t *testing.T) { testDbpmda(t, pmdaDir) })
	})
	t.Run("tools", func(t *testing.T) {
		t.Parallel()
		t.Run("pmlogger", func(t *testing.T) { testPmlogger(t) })
		t.Run("pmlogconf", func(t *testing.T) { testPmlogconf(t) })
		t.Run("pmieconf", func(t *testing.T) { testPmieconf(t) })
		t.Run("pmrep views", func(t *testing.T) { testPmrepViews(t) })
		t.Run("fleet: pmseries and pmproxy", func(t *testing.T) { testFleet(t, load) })
		t.Run("man page", func(t *testing.T) { testManPage(t) })
	})
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// runIn runs a command in dir with the given standard input and returns its
// output; a failure or a hang fails the test.
func runIn(t *testing.T, dir, stdin, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}
