//go:build linux

package integration

import (
	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// switchStay is how long the switch stands in at least: a dozen of the
// logger's samples, and more than pmcd's reconnection of the socket entry
// takes.
const switchStay = 15 * time.Second

// testSwitch: PCP's primary pmlogger, started by PCP's own init script
// (pmlogger_check, its configuration made by pmlogconf with hostcache's
// groups, at a 1 s interval), goes on across Install -S linux and Install
// -S none: the same process, values of pmdalinux's kernel.all.load and
// hostcache's hostcache.kernel.all.load before, while and after standing
// in, no PMID changed in its log, and the day's pieces merge with
// pmlogextract as pmlogger_daily merges them, and pmlogcheck passes on the
// merge. standingIn runs while the agent stands in. The agent is left
// beside pmdalinux.
func testSwitch(t *testing.T, bin, pmdaDir string, standingIn func()) {
	requireTools(t, "pmlogger", "pmlogextract", "pmlogcheck", "pmdumplog")
	mustRun(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), bin, "-S", "none")
	initScript := "/etc/init.d/pmlogger"
	dir, why := primaryLogger(t, initScript)
	if dir == "" {
		if testenv.InCI() {
			t.Error(why)
		}
		t.Logf("the primary pmlogger is not checked across the switch: %s", why)
		runIn(t, pmdaDir, "", "./Install", "-S", "linux")
		standingIn()
		runIn(t, pmdaDir, "", "./Install", "-S", "none")
		return
	}

	pid := waitPrimary(t)
	time.Sleep(3 * time.Second) // a few records before the switch
	confPath := pcpVar(t, "PCP_PMCDCONF_PATH")
	confBefore := readText(t, confPath)
	switchIn := time.Now()
	out := runIn(t, pmdaDir, "", "./Install", "-S", "linux")
	in := time.Now()
	if !strings.Contains(readText(t, confPath), "socket\tunix") {
		t.Errorf("Install -S linux left no socket entry:\n%s", out)
	}
	standingIn()
	time.Sleep(time.Until(in.Add(switchStay)))
	switchOut := time.Now()
	runIn(t, pmdaDir, "", "./Install", "-S", "none")
	out2 := time.Now()
	if after := readText(t, confPath); after != confBefore {
		t.Errorf("pmcd.conf after Install -S none:\n%s\nbefore Install -S linux:\n%s", after, confBefore)
	}
	time.Sleep(3 * time.Second) // a few records after it
	t.Logf("standing in from %s to %s (Install -S linux took %v, -S none %v)",
		in.UTC().Format("15:04:05"), switchOut.UTC().Format("15:04:05"), in.Sub(switchIn).Round(time.Second), out2.Sub(switchOut).Round(time.Second))

	log := readText(t, filepath.Join(dir, "pmlogger.log"))
	if !fileExists(filepath.Join("/proc", strconv.Itoa(pid))) {
		t.Fatalf("the primary pmlogger %d has exited; its log:\n%s", pid, log)
	}
	if now := waitPrimary(t); now != pid {
		t.Errorf("the primary pmlogger was %d before the switch, %d after", pid, now)
	}
	if strings.Contains(log, "has changed") || strings.Contains(log, "Exiting") {
		t.Errorf("pmlogger's log:\n%s", log)
	}
	t.Logf("pmlogger %d checked its metrics %d times across the switch", pid, strings.Count(log, "Validating metrics"))

	windows := []struct {
		what     string
		from, to time.Time
	}{{"before", time.Time{}, switchIn}, {"standing in", in, switchOut}, {"after", out2, time.Now()}}
	mustRun(t, 2*time.Minute, initScript, "stop") // the piece whole, before it is read
	records := dumpRecords(t, dir)
	for _, w := range windows {
		counts := map[string]int{}
		for _, r := range records {
			if r.at.After(w.from) && r.at.Before(w.to) {
				for _, name := range []string{"kernel.all.load", "hostcache.kernel.all.load"} {
					if r.values[name] {
						counts[name]++
					}
				}
			}
		}
		if counts["kernel.all.load"] == 0 || counts["hostcache.kernel.all.load"] == 0 {
			t.Errorf("%s the switch: records with values %v\n%s\npmlogger.log:\n%s", w.what, counts, agentLogs(t), log)
		}
		t.Logf("%s: %d records of kernel.all.load, %d of hostcache.kernel.all.load", w.what, counts["kernel.all.load"], counts["hostcache.kernel.all.load"])
	}

	// A second piece of the day, as a restart of the logger leaves, then
	// the merge pmlogger_daily makes of them.
	mustRun(t, 2*time.Minute, initScript, "start")
	second := waitPrimary(t)
	time.Sleep(3 * time.Second) // a few records in the second piece
	mustRun(t, 2*time.Minute, initScript, "stop")
	pieces := archivePieces(t, dir)
	if len(pieces) < 2 {
		t.Fatalf("pieces of the day: %v (the logger after restart: %d)", pieces, second)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if out, err := run(t, 2*time.Minute, "pmlogextract", append(pieces, merged)...); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("pmlogextract of %d pieces: %v\n%s", len(pieces), err, firstLines(out, 12))
	}
	if out, err := run(t, 2*time.Minute, "pmlogcheck", merged); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("pmlogcheck of the merge: %v\n%s", err, firstLines(out, 12))
	}
	has := archiveValues(t, merged)
	if !has["kernel.all.load"] || !has["hostcache.kernel.all.load"] {
		t.Error("the merge has not both loads")
	}
	t.Logf("pmlogextract merged %d pieces, pmlogcheck passed on the merge", len(pieces))
}

// primaryLogger points PCP's primary logger at an archive directory of
// the test's, at a 1 s interval, with a configuration pmlogger_check
// makes afresh with pmlogconf, and starts it with PCP's init script. It
// puts the control file and the configuration back afterwards, and
// stops the logger.
func primaryLogger(t *testing.T, initScript string) (dir, why string) {
	t.Helper()
	if !fileExists(initScript) {
		return "", "PCP's pmlogger init script is not installed"
	}
	if others := otherLoggers(t); len(others) > 0 {
		return "", "a pmlogger runs already: " + strings.Join(others, " ")
	}
	control := filepath.Join(pcpVar(t, "PCP_SYSCONF_DIR"), "pmlogger", "control.d", "local")
	saved, err := os.ReadFile(control)
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(pcpVar(t, "PCP_VAR_DIR"), "config", "pmlogger", "config.hostcache-switch")
	dir = filepath.Join(pcpVar(t, "PCP_ARCHIVE_DIR"), "hostcache-switch")
	os.RemoveAll(dir)
	os.Remove(config)
	// The init script keeps pmlogger_check's complaints in its log.
	checkLog := filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmlogger", "pmlogger_check.log")
	hadCheckLog := fileExists(checkLog)
	t.Cleanup(func() {
		run(t, 2*time.Minute, initScript, "stop")
		os.WriteFile(control, saved, 0o644)
		os.Remove(config)
		if !hadCheckLog {
			os.Remove(checkLog)
			os.Remove(checkLog + ".prev")
		}
		if !t.Failed() {
			os.RemoveAll(dir)
		}
	})
	line := "$version=1.1\nLOCALHOSTNAME\ty   n\t" + dir + "\t-r -T24h10m -c " + filepath.Base(config) + " -v 100Mb -t 1sec\n"
	if err := os.WriteFile(control, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, 2*time.Minute, initScript, "start")
	if !strings.Contains(readText(t, config), "hostcache/health:y") {
		t.Fatalf("pmlogger_check's configuration has not hostcache's groups:\n%s", firstLines(readText(t, config), 20))
	}
	return dir, ""
}

// otherLoggers are the pmlogger processes running that this test process
// did not start (its own log beside the primary).
func otherLoggers(t *testing.T) []string {
	out, _ := run(t, 10*time.Second, "pgrep", "-x", "pmlogger")
	var others []string
	for _, pid := range strings.Fields(out) {
		stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err != nil {
			continue // gone
		}
		// The parent is the second field after the command's closing ")".
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
		if f := strings.Fields(rest); len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
			continue
		}
		others = append(others, pid)
	}
	return others
}

// waitPrimary returns the primary pmlogger's pid, once it runs.
func waitPrimary(t *testing.T) int {
	t.Helper()
	link := filepath.Join(pcpVar(t, "PCP_TMP_DIR"), "pmlogger", "primary")
	var pid int
	waitFor(t, "the primary pmlogger", time.Minute, func() bool {
		target, err := os.Readlink(link)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(filepath.Base(target))
		return err == nil && fileExists(filepath.Join("/proc", strconv.Itoa(pid)))
	})
	return pid
}

// archivePieces are the archives in dir, oldest first, by base name.
func archivePieces(t *testing.T, dir string) []string {
	t.Helper()
	metas, _ := filepath.Glob(filepath.Join(dir, "*.meta"))
	var out []string
	for _, m := range metas {
		out = append(out, strings.TrimSuffix(m, ".meta"))
	}
	sort.Strings(out)
	return out
}

// record is one record of an archive: its time and the names with values.
type record struct {
	at     time.Time
	values map[string]bool
}

// recordStart is a record's first line in pmdumplog's output, in UTC.
var recordStart = regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+) +\d+ metrics?$`)

// dumpRecords reads every record of every archive in dir.
func dumpRecords(t *testing.T, dir string) []record {
	t.Helper()
	var out []record
	day := time.Now().UTC().Format("2006-01-02 ")
	for _, piece := range archivePieces(t, dir) {
		var cur *record
		for _, line := range strings.Split(mustRun(t, time.Minute, "pmdumplog", "-Z", "UTC", piece), "\n") {
			if m := recordStart.FindStringSubmatch(line); m != nil {
				at, err := time.Parse("2006-01-02 15:04:05.999999", day+m[1])
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, record{at: at, values: map[string]bool{}})
				cur = &out[len(out)-1]
				continue
			}
			if cur == nil {
				continue
			}
			if m := dumpedMetric.FindStringSubmatch(line); m != nil {
				rest := strings.TrimSpace(m[2])
				if rest == "" || strings.HasPrefix(rest, "value ") || strings.HasPrefix(rest, "inst [") {
					for _, name := range strings.Split(m[1], " or ") {
						cur.values[name] = true
					}
				}
			}
		}
	}
	return out
}

// agentLogs gives what pmcd and the agent logged of hostcache's entries:
// the lines of pmcd's log that name hostcache or an agent's end, and the
// agent's last lines.
func agentLogs(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd")
	var b strings.Builder
	pmcd, _ := os.ReadFile(filepath.Join(dir, "pmcd.log"))
	b.WriteString("pmcd.log, hostcache's lines:\n")
	for _, line := range strings.Split(string(pmcd), "\n") {
		if strings.Contains(line, "hostcache") || strings.Contains(line, "RESTARTED") ||
			strings.Contains(line, "Cleanup") || strings.Contains(line, "rror") {
			b.WriteString(line + "\n")
		}
	}
	agent, _ := os.ReadFile(filepath.Join(dir, "hostcache.log"))
	lines := strings.Split(strings.TrimSpace(string(agent)), "\n")
	b.WriteString("hostcache.log, its end:\n")
	b.WriteString(strings.Join(lines[max(0, len(lines)-40):], "\n"))
	return b.String()
}
