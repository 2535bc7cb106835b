//go:build linux

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStandInTools runs PCP's own clients against pmdalinux, then against
// hostcache standing in for it (Install -S linux), and holds the stand-in
// to what pmdalinux gave in the same run: the primary pmlogger's fresh
// pmlogconf configuration logs with no new complaint and no name loses its
// values; every pmrep view PCP ships prints what it printed before;
// pmstat, pcp-dstat, pcp-iostat, pcp-mpstat, pcp-free and pcp-uptime print
// their rows of figures; the default pmie rules evaluate as before. The
// two archives merge with pmlogextract and pass pmlogcheck. After Remove
// pmdalinux serves again.
func TestStandInTools(t *testing.T) {
	requirePCP(t)
	requireTools(t, "pmlogconf", "pmlogger", "pmdumplog", "pmlogextract", "pmlogcheck",
		"pmrep", "pmstat", "pmie", "pmieconf")
	stats := statTools(t)
	bin := buildPMDA(t)
	pmdaDir := filepath.Join(pcpVar(t, "PCP_PMDAS_DIR"), "hostcache")
	dir := sharedDir(t)
	conf, err := os.ReadFile(pcpVar(t, "PCP_PMCDCONF_PATH"))
	if err != nil {
		t.Fatal(err)
	}
	if entry := linuxEntry(string(conf)); !strings.Contains(entry, "pmdalinux") {
		t.Fatalf("pmcd.conf's domain 60 is %q: the clients' first run needs pmdalinux there", entry)
	}
	if n := listMetrics(t, []string{"kernel.all.load"})["kernel.all.load"].numval; n != 3 {
		t.Fatalf("pmdalinux gives kernel.all.load %d values before the switch", n)
	}
	views := pmrepViews(t)
	restoreBeside(t, pmdaDir)
	// The first run is pmdalinux's alone, as on a host that never had
	// hostcache: beside it, hostcache's names are in its own domain 396,
	// and standing in, in domain 60, so its archives do not merge across
	// the switch (the README says so); pmdalinux's do.
	if installed() {
		mustRun(t, 2*time.Minute, "sh", "-c", "cd "+pmdaDir+" && ./Remove </dev/null")
	}

	before := runClients(t, dir, "before", views, stats)
	mustRun(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), bin, "-S", "linux")
	waitFor(t, "the stand-in's kernel.all.load", 30*time.Second, func() bool {
		return listMetrics(t, []string{"kernel.all.load"})["kernel.all.load"].numval == 3
	})
	waitForCollectors(t)
	after := runClients(t, dir, "after", views, stats)

	t.Run("pmlogger", func(t *testing.T) { compareLoggers(t, before, after) })
	t.Run("pmrep views", func(t *testing.T) { compareViews(t, views, before.outputs, after.outputs) })
	t.Run("stat tools", func(t *testing.T) { compareStatTools(t, stats, before.outputs, after.outputs) })
	t.Run("pmie", func(t *testing.T) { comparePmie(t, before.pmie, after.pmie) })
	t.Run("pmlogextract and pmlogcheck", func(t *testing.T) {
		checkArchives(t, before.archive, after.archive, filepath.Join(dir, "merged"))
	})

	mustRun(t, 2*time.Minute, "sh", "-c", "cd "+pmdaDir+" && ./Remove </dev/null")
	waitFor(t, "pmdalinux's kernel.all.load after Remove", 30*time.Second, func() bool {
		return listMetrics(t, []string{"kernel.all.load"})["kernel.all.load"].numval == 3
	})
	if out, _ := run(t, 10*time.Second, "pgrep", "-x", "pmdalinux"); strings.TrimSpace(out) == "" {
		t.Error("pmdalinux does not run after Remove")
	}
	checkViewAgain(t, views, before.outputs)
}

// sharedDir is a temporary directory every user may write: pmie started
// by root runs as the pcp user and writes its log there.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hostcache-standin-tools-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// waitForCollectors waits for three samples of every collector (one of
// those that sample once a minute or slower), so rates and peaks have
// values when the clients start.
func waitForCollectors(t *testing.T) {
	t.Helper()
	waitForSamples(t, 3, 59*time.Second)
}

// waitForSamples waits until every collector that samples at least every
// upTo has n samples, and every other collector one.
func waitForSamples(t *testing.T, n int, upTo time.Duration) {
	t.Helper()
	what := fmt.Sprintf("%d samples of every collector sampling every %v or more often", n, upTo)
	waitFor(t, what, 30*time.Second, func() bool {
		samples := values(t, "hostcache.control.collector.samples")
		intervals := values(t, "hostcache.control.collector.interval")
		for inst, v := range samples {
			want := n
			if ms, _ := strconv.Atoi(intervals[inst]); time.Duration(ms)*time.Millisecond > upTo {
				want = 1
			}
			if got, err := strconv.Atoi(v); err != nil || got < want {
				return false
			}
		}
		return len(samples) > 0
	})
}

// checkViewAgain runs, after Remove, the first view that printed figures
// and no N/A before the switch, and wants figures from it again.
func checkViewAgain(t *testing.T, views []pmrepView, before map[string]toolOutput) {
	for _, v := range views {
		b := before[v.jobName()]
		if v.perProcess || b.failed() || !finalSample(b.stdout).clean() {
			continue
		}
		out := runJobs([]clientJob{v.command()})[v.jobName()]
		if out.failed() || !finalSample(out.stdout).clean() {
			t.Errorf("after Remove pmrep :%s prints no clean final sample: %v\n%s%s", v.name, out.err, out.stdout, out.stderr)
		}
		t.Logf("after Remove, pmrep :%s:\n%s", v.name, out.stdout)
		return
	}
	t.Error("no view printed a clean final sample before the switch")
}
