package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testPmlogconf: the groups Install puts in place are what PCP's primary
// pmlogger picks up. A new pmlogconf configuration includes the summary
// and health groups and offers the detail groups off; the re-probe that
// pmlogger_check runs on an existing configuration (written before the
// groups existed) adds them; and pmlogger logs what they name.
func testPmlogconf(t *testing.T) {
	groups := filepath.Join(pcpVar(t, "PCP_VAR_DIR"), "config", "pmlogconf")
	if !fileExists(filepath.Join(groups, "hostcache", "summary")) {
		t.Fatalf("Install put no pmlogconf groups in %s/hostcache", groups)
	}
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.config")
	mustRun(t, time.Minute, "pmlogconf", "-q", fresh)
	checkGroupLines(t, fresh)

	// An existing configuration, made without our groups, then re-probed.
	without := filepath.Join(dir, "groups")
	cp := exec.Command("cp", "-r", groups, without)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("copying groups: %v %s", err, out)
	}
	os.RemoveAll(filepath.Join(without, "hostcache"))
	existing := filepath.Join(dir, "existing.config")
	mustRun(t, time.Minute, "pmlogconf", "-q", "-d", without, existing)
	if data, _ := os.ReadFile(existing); strings.Contains(string(data), "hostcache") {
		t.Fatal("a configuration made without our groups mentions hostcache")
	}
	mustRun(t, time.Minute, "pmlogconf", "-q", "-r", "-c", existing)
	checkGroupLines(t, existing)

	archive := filepath.Join(dir, "primary")
	mustRun(t, time.Minute, "pmlogger", "-c", fresh, "-s", "3", "-t", "1sec", "-l", archive+".log", archive)
	out := mustRun(t, time.Minute, "pmdumplog", archive)
	for _, m := range []string{"hostcache.kernel.cpu.util.user", "hostcache.max.kernel.cpu.util.user",
		"hostcache.rate.network.all.in.bytes", "hostcache.control.collector.samples"} {
		if !strings.Contains(out, m) {
			t.Errorf("the pmlogconf configuration does not log %s", m)
		}
	}
}

// testExampleConfig: Install leaves a commented hostcache.conf when there
// was none (an administrator's own is never overwritten).
func testExampleConfig(t *testing.T, pmdaDir string) {
	data, err := os.ReadFile(filepath.Join(pmdaDir, "hostcache.conf"))
	if err != nil || !strings.Contains(string(data), "#interval = 1000") {
		t.Errorf("no example hostcache.conf in %s: %v", pmdaDir, err)
	}
}

// testManPage: make install put the manual page where man finds it.
func testManPage(t *testing.T) {
	requireTools(t, "man")
	out := mustRun(t, 20*time.Second, "man", "-w", "pmdahostcache")
	if !strings.Contains(out, "pmdahostcache.1") {
		t.Errorf("man -w pmdahostcache: %s", out)
	}
}

// checkGroupLines: summary and health are logged, the detail groups
// offered but off, as pmlogconf writes them.
func checkGroupLines(t *testing.T, config string) {
	t.Helper()
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"#+ hostcache/summary:y:", "#+ hostcache/health:y:", "#+ hostcache/disk:n:",
		"hostcache.kernel.cpu.util", "hostcache.max.rate.disk.all", "hostcache.control"} {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q", filepath.Base(config), want)
		}
	}
	var ours []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "hostcache") {
			ours = append(ours, line)
		}
	}
	t.Logf("%s: %d hostcache lines, e.g.\n%s", filepath.Base(config), len(ours), strings.Join(ours[:min(len(ours), 12)], "\n"))
}
