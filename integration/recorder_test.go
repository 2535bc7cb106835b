package integration

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// recorderPairs are the metrics compared on replay: hostcache's from the
// flight recorder's archive, pmdalinux's twin from a pmlogger archive
// recorded meanwhile, each read at its own fetch time.
var recorderPairs = []struct {
	ours, theirs string
	floor        float64 // below this a difference is noise, in the value's units
}{
	{"hostcache.kernel.all.intr", "kernel.all.intr", 100},
	{"hostcache.kernel.all.pswitch", "kernel.all.pswitch", 100},
	{"hostcache.disk.all.write_bytes", "disk.all.write_bytes", 256},
	{"hostcache.mem.util.free", "mem.util.free", 64 << 10},
}

// testFlightRecorder: with the host under load, pmlogger logs pmdalinux's
// metrics at 1 s for 30 s from the common start, before the burst; once
// the other checks' seconds are over, a pmstore asks hostcache for the
// last 75 seconds, from a user of the pcp group (pcpMember). The archive it writes passes pmlogcheck and pmlogextract, shows
// the live agent's descriptors, instances, labels and help in pmdumplog,
// and replayed by pmval at intervals the records do not fall on (0.7 s,
// 2.5 s, 15 s) gives the values pmval gives from pmlogger's archive, as does
// a derived metric of two counters.
func testFlightRecorder(t *testing.T, load *underLoad) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	var names []string
	for _, p := range recorderPairs {
		names = append(names, p.theirs)
	}
	os.WriteFile(cfg, []byte("log mandatory on default {\n "+strings.Join(append(names, "disk.all.total", "disk.all.total_bytes"), "\n ")+"\n}\n"), 0o644)
	theirs := filepath.Join(dir, "pmlogger")
	// From the common start to before the burst: a sharp step of writes
	// between two loggers' fetches is not what this compares.
	load.waitT0(t)
	mustRun(t, 2*time.Minute, "pmlogger", "-c", cfg, "-t", "1sec", "-s", "30", "-l", theirs+".log", theirs)
	// Writing the archive costs the agent CPU: not while the others
	// measure it.
	time.Sleep(time.Until(load.t0.Add(ciChecksEnd)))

	ours := load.record(t, "75", func(args ...string) { mustRun(t, 20*time.Second, "setpriv", pcpMember(t, args...)...) })
	t.Logf("archive %s: %s records, %s bytes", ours, values(t, "hostcache.control.record.records")[""],
		values(t, "hostcache.control.record.bytes")[""])
	if fi, err := os.Stat(ours + ".meta"); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("the archive's metadata: %v", err)
	}
	mustRun(t, time.Minute, "pmlogcheck", ours)
	extracted := filepath.Join(dir, "extracted")
	mustRun(t, time.Minute, "pmlogextract", ours, extracted)
	mustRun(t, time.Minute, "pmlogcheck", extracted)

	checkRecordedMetadata(t, ours)
	from, to := overlap(t, ours, theirs)
	for _, step := range []string{"0.7", "2.5", "15"} {
		for _, p := range recorderPairs {
			compareReplay(t, step, from, to, ours, p.ours, theirs, p.theirs, p.floor, "")
		}
	}
	derived := filepath.Join(dir, "derived")
	os.WriteFile(derived, []byte("hostcache.test.rqsz = delta(hostcache.disk.all.total_bytes) / delta(hostcache.disk.all.total)\n"+
		"test.rqsz = delta(disk.all.total_bytes) / delta(disk.all.total)\n"), 0o644)
	// A mean request size shifts with which requests fall in which
	// interval: bursts of other processes' I/O move it more than a rate.
	compareReplayLimit(t, "2.5", from, to, ours, "hostcache.test.rqsz", theirs, "test.rqsz", 0.5, derived, 0.20)
}

// pcpMember is setpriv's arguments to run a command as a user with no
// name whose primary group is pcp: allowed to store by the default
// store_groups, and a user of its own, so that its request starts no
// record_min_gap for root's or pmie's (the pcp user's) requests after it.
func pcpMember(t *testing.T, args ...string) []string {
	t.Helper()
	return pcpMemberAs(t, 4243, args...)
}

// pcpMemberAs is pcpMember as the given uid: each check that records
// under testUnderLoad has a user of its own.
func pcpMemberAs(t *testing.T, uid int, args ...string) []string {
	t.Helper()
	g, err := user.LookupGroup("pcp")
	if err != nil {
		t.Fatalf("the pcp group: %v", err)
	}
	return append([]string{"--reuid=" + strconv.Itoa(uid), "--regid=" + g.Gid, "--clear-groups"}, args...)
}

// checkRecordedMetadata compares the archive's descriptors, instances,
// labels and help with what the live agent answers.
func checkRecordedMetadata(t *testing.T, archive string) {
	t.Helper()
	out := mustRun(t, time.Minute, "pmdumplog", "-d", archive)
	desc := regexp.MustCompile(`(?m)^PMID: \S+ \((\S+)\)\n\s+(Data Type: .*)\n\s+(Semantics: .*)$`)
	recorded := desc.FindAllStringSubmatch(out, -1)
	if len(recorded) < 500 {
		t.Fatalf("only %d descriptors in the archive", len(recorded))
	}
	var names []string
	want := map[string]string{}
	for _, m := range recorded {
		if isMMVFileName(m[1]) {
			continue // gone with its file, checked by testMMVRecorder
		}
		names = append(names, m[1])
		want[m[1]] = m[2] + " " + m[3]
	}
	live := mustRun(t, time.Minute, "pminfo", append([]string{"-d"}, names...)...)
	liveDesc := regexp.MustCompile(`(?m)^(\S+)\n\s+(Data Type: .*)\n\s+(Semantics: .*)$`)
	seen := 0
	for _, m := range liveDesc.FindAllStringSubmatch(live, -1) {
		seen++
		if got := m[2] + " " + m[3]; got != want[m[1]] {
			t.Errorf("%s: archive %q, live %q", m[1], want[m[1]], got)
		}
	}
	if seen != len(names) {
		t.Errorf("%d of the archive's %d metrics found live", seen, len(names))
	}
	insts := mustRun(t, time.Minute, "pmdumplog", "-i", archive)
	for inst := range values(t, "hostcache.kernel.percpu.cpu.user") {
		if !strings.Contains(insts, fmt.Sprintf(" or %q", inst)) {
			t.Errorf("instance %q of the CPU domain is not in the archive", inst)
		}
	}
	labels := mustRun(t, time.Minute, "pmdumplog", "-e", archive)
	for _, want := range []string{`{"agent":"hostcache"}`, `"collector":"disk"`, `"device_name":`, `"indom_name":"per cpu"`, `"hostname":`} {
		if !strings.Contains(labels, want) {
			t.Errorf("pmdumplog -e lacks %s", want)
		}
	}
	help := mustRun(t, time.Minute, "pmdumplog", "-h", archive)
	oneLine := strings.TrimSpace(strings.SplitN(strings.SplitN(mustRun(t, 20*time.Second, "pminfo", "-t", "hostcache.kernel.all.intr"), "[", 2)[1], "]", 2)[0])
	if !strings.Contains(help, oneLine) {
		t.Errorf("pmdumplog -h lacks the live help %q", oneLine)
	}
}

// overlap is the span both archives cover, a second in from each end.
func overlap(t *testing.T, a, b string) (time.Time, time.Time) {
	t.Helper()
	sa, ea := archiveSpan(t, a)
	sb, eb := archiveSpan(t, b)
	from, to := sa, ea
	if sb.After(from) {
		from = sb
	}
	if eb.Before(to) {
		to = eb
	}
	from, to = from.Add(time.Second).Truncate(time.Second).Add(time.Second), to.Add(-time.Second).Truncate(time.Second)
	if to.Sub(from) < 25*time.Second {
		t.Fatalf("the archives overlap %v only", to.Sub(from))
	}
	return from, to
}

func archiveSpan(t *testing.T, archive string) (time.Time, time.Time) {
	t.Helper()
	out := mustRun(t, time.Minute, "pmdumplog", "-L", "-Z", "UTC", archive)
	var ts []time.Time
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:commencing|ending)\s+(.*)$`).FindAllStringSubmatch(out, -1) {
		v, err := time.Parse("Mon Jan 2 15:04:05.000000 2006", strings.TrimSpace(m[1]))
		if err != nil {
			t.Fatalf("archive label time %q: %v", m[1], err)
		}
		ts = append(ts, v)
	}
	if len(ts) != 2 {
		t.Fatalf("no span in\n%s", out)
	}
	return ts[0], ts[1]
}

// compareReplay runs pmval over the same span at the same step on both
// archives and compares the values point by point.
func compareReplay(t *testing.T, step string, from, to time.Time, ours, oursName, theirs, theirsName string, floor float64, derived string) {
	t.Helper()
	// Interpolating between records assumes a steady load between them:
	// over a fraction of a second, or a few seconds of bursty disk writes
	// (a journal commit, another process), the two archives' phases give
	// different figures. A wrong time stamp or unit shows at every step.
	limit := 0.10
	if step == "0.7" {
		limit = 0.15
	}
	compareReplayLimit(t, step, from, to, ours, oursName, theirs, theirsName, floor, derived, limit)
}

// compareReplayLimit is compareReplay with the largest median difference allowed.
func compareReplayLimit(t *testing.T, step string, from, to time.Time, ours, oursName, theirs, theirsName string, floor float64, derived string, limit float64) {
	t.Helper()
	a := pmvalSeries(t, step, from, to, ours, oursName, derived)
	b := pmvalSeries(t, step, from, to, theirs, theirsName, derived)
	var diffs []float64
	for at, v := range a {
		if w, ok := b[at]; ok {
			diffs = append(diffs, math.Abs(v-w)/math.Max(math.Abs(w), floor))
		}
	}
	if len(diffs) == 0 {
		t.Errorf("%s at %s s: no common values (%d and %d)", oursName, step, len(a), len(b))
		return
	}
	sort.Float64s(diffs)
	med, worst := diffs[len(diffs)/2], diffs[len(diffs)-1]
	t.Logf("replay at %4s s: %-34s vs %-22s %3d values, median difference %5.2f%%, largest %6.2f%%",
		step, oursName, theirsName, len(diffs), 100*med, 100*worst)
	if med > limit {
		t.Errorf("%s at %s s: median difference %.1f%% from pmlogger's %s", oursName, step, 100*med, theirsName)
	}
}

var pmvalLine = regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+)\s+(\S+)\s*$`)

// pmvalSeries replays one singular metric with pmval: time to value.
func pmvalSeries(t *testing.T, step string, from, to time.Time, archive, metric, derived string) map[string]float64 {
	t.Helper()
	// pmval takes whole seconds in this form.
	layout := "@2006-01-02 15:04:05"
	cmd := exec.Command("pmval", "-z", "-f", "6", "-t", step, "-S", from.UTC().Format(layout), "-T", to.UTC().Format(layout), "-a", archive, metric)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	if derived != "" {
		cmd.Env = append(cmd.Env, "PCP_DERIVED_CONFIG="+derived)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pmval %s: %v\n%s", metric, err, out)
	}
	vals := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := pmvalLine.FindStringSubmatch(line); m != nil {
			if v, err := strconv.ParseFloat(m[2], 64); err == nil {
				vals[m[1]] = v
			}
		}
	}
	return vals
}
