//go:build linux

package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// loggerRun is pmlogger recording from a fresh primary configuration.
type loggerRun struct {
	config, log string
	proc        *background
}

// startLogger writes a fresh pmlogconf configuration, as pmlogger_check
// makes one for the primary logger, and starts pmlogger on it for about
// five samples a second apart, archive at base.
func startLogger(t *testing.T, base string) loggerRun {
	t.Helper()
	l := loggerRun{config: base + ".pmlogger.config", log: base + ".pmlogger.log"}
	mustRun(t, time.Minute, "pmlogconf", "-c", "-q", "-h", "local:", l.config)
	l.proc = startBackground(t, "pmlogger", "-c", l.config, "-t", "1sec", "-T", "5sec", "-l", l.log, base)
	return l
}

// dumpedMetric is one metric of one record as pmdumplog prints it: its
// PMID, its names (" or " between them), and its value, or nothing when
// instances follow, or why there is none.
var dumpedMetric = regexp.MustCompile(`(?m)^\s+[\d.]+ \(([^)]*)\):(.*)$`)

// archiveValues names the metrics with a value in some record of the
// archive.
func archiveValues(t *testing.T, archive string) map[string]bool {
	t.Helper()
	has := map[string]bool{}
	for _, m := range dumpedMetric.FindAllStringSubmatch(mustRun(t, time.Minute, "pmdumplog", archive), -1) {
		rest := strings.TrimSpace(m[2])
		if rest != "" && !strings.HasPrefix(rest, "value ") && !strings.HasPrefix(rest, "inst [") {
			continue
		}
		for _, name := range strings.Split(m[1], " or ") {
			has[name] = true
		}
	}
	if len(has) == 0 {
		t.Fatalf("no values in %s", archive)
	}
	return has
}

// loggerBenign are the lines every pmlogger log has.
var loggerBenign = regexp.MustCompile(`^(Log for pmlogger|Log finished|preprocessor cmd:|Config parsed|` +
	`Starting logger|Archive basename:|\[[^\]]*\] pmlogger\(\d+\) Info: )`)

// bracketed is a log line's bracketed part: the configuration's name and
// line, or a time, which differ between runs.
var bracketed = regexp.MustCompile(`\[[^\]]*\]`)

// loggerComplaints are the lines of a pmlogger log that are not its
// ordinary ones.
func loggerComplaints(log string) string {
	var b strings.Builder
	for _, line := range strings.Split(log, "\n") {
		if line = strings.TrimSpace(line); line != "" && !loggerBenign.MatchString(line) {
			b.WriteString(bracketed.ReplaceAllString(line, "[]") + "\n")
		}
	}
	return b.String()
}

// compareLoggers: the stand-in's log has no complaint pmdalinux's had
// not, and every name with values in pmdalinux's archive has values in
// the stand-in's, but for the absences the README documents.
func compareLoggers(t *testing.T, before, after clientRun) {
	if diff := newLines(groupLines(t, before.loggerConfig), groupLines(t, after.loggerConfig)); len(diff) > 0 {
		t.Logf("pmlogconf groups that differ from pmdalinux's configuration: %v", diff)
	}
	complaints := newLines(loggerComplaints(before.loggerLog), loggerComplaints(after.loggerLog))
	if len(complaints) > 0 {
		t.Errorf("pmlogger's log with the stand-in has %d lines pmdalinux's has not:\n%s", len(complaints), strings.Join(complaints, "\n"))
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var lost []string
	for name := range before.withValues {
		if !after.withValues[name] {
			lost = append(lost, name)
		}
	}
	sort.Strings(lost)
	for _, name := range lost {
		why, ok := deliberatelyNoValue[name]
		switch {
		case strings.HasPrefix(name, "pmcd.pmie."):
			// pmcd's own, of the pmie processes running at the fetch: this
			// test's pmie starts beside the logger, before or after its first
			// record. The switch of domain 60 does not touch them.
			t.Logf("%s: values in pmdalinux's archive, none in the stand-in's: pmcd's, not the switch's", name)
		case ok && strings.Contains(string(readme), name):
			t.Logf("%s: values in pmdalinux's archive, none in the stand-in's on purpose: %s", name, why)
		case ok:
			t.Errorf("%s: withheld on purpose, but the README does not say so", name)
		default:
			t.Errorf("%s: values in pmdalinux's archive, none in the stand-in's", name)
		}
	}
	t.Logf("names with values in the archive: %d from pmdalinux, %d from the stand-in, %d lost; %d new complaint lines in pmlogger's log",
		len(before.withValues), len(after.withValues), len(lost), len(complaints))
}

// groupLines are the "#+ group:state:..." lines of a pmlogconf
// configuration, the groups it chose.
func groupLines(t *testing.T, config string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(readText(t, config), "\n") {
		if strings.HasPrefix(line, "#+ ") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// checkArchives: pmlogextract merges the archive from pmdalinux and the
// one from the stand-in without a word, and pmlogcheck passes all three.
func checkArchives(t *testing.T, before, after, merged string) {
	archives := []string{before, after}
	out, err := run(t, 2*time.Minute, "pmlogextract", before, after, merged)
	if err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("pmlogextract of the archives before and after the switch: %v; %d lines, %d errors, %d warnings, the first:\n%s",
			err, strings.Count(out, "\n"), strings.Count(out, "Error:"), strings.Count(out, "Warning:"), firstLines(out, 12))
	}
	if fileExists(merged + ".meta") {
		archives = append(archives, merged)
	}
	for _, a := range archives {
		if out, err := run(t, 2*time.Minute, "pmlogcheck", a); err != nil || strings.TrimSpace(out) != "" {
			t.Errorf("pmlogcheck %s: %v\n%s", filepath.Base(a), err, firstLines(out, 12))
		}
	}
	t.Logf("pmlogcheck ran on %d archives", len(archives))
}

func firstLines(text string, n int) string {
	lines := strings.Split(text, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
