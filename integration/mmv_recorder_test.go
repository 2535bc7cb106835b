package integration

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mmvRecorded is one record of the MMV counter in an archive.
type mmvRecorded struct {
	at    time.Time // time of day only
	value float64
}

// testMMVRecorder: after the burst, the flight recorder asked for the last
// 60 s writes an archive that has every metric of the file and the
// counter at 1 s, the burst one step of thousands between two records a
// second apart, the steps beside it the steady rate.
func testMMVRecorder(t *testing.T, load *underLoad) {
	archive := load.record(t, "60", func(args ...string) {
		mustRun(t, 20*time.Second, "setpriv", pcpMemberAs(t, 4244, args...)...)
	})
	mustRun(t, time.Minute, "pmlogcheck", archive)
	descs := mustRun(t, time.Minute, "pmdumplog", "-d", archive)
	for _, name := range []string{"requests", "queue.depth", "region.requests", "region.latency", "version"} {
		if !strings.Contains(descs, "(hostcache.mmv.hctest."+name+")") {
			t.Errorf("the archive has no hostcache.mmv.hctest.%s", name)
		}
	}
	recs := mmvArchiveSeries(t, archive, "hostcache.mmv.hctest.requests")
	if len(recs) < 50 {
		t.Fatalf("the archive has %d records of the counter over 60 s", len(recs))
	}
	var gaps []float64
	burst := -1
	for i := 1; i < len(recs); i++ {
		gap := recs[i].at.Sub(recs[i-1].at).Seconds()
		if gap < 0 { // past midnight
			gap += 86400
		}
		gaps = append(gaps, gap)
		if recs[i].value-recs[i-1].value >= mmvBurst {
			if burst >= 0 {
				t.Errorf("a second step of %v at %s", recs[i].value-recs[i-1].value, recs[i].at.Format("15:04:05.000"))
			}
			burst = i
		}
	}
	sort.Float64s(gaps)
	if med := gaps[len(gaps)/2]; med < 0.9 || med > 1.1 {
		t.Errorf("the counter's records are %.3f s apart (median), want 1 s", med)
	}
	if burst < 0 {
		t.Fatal("the burst is not in the archive")
	}
	logMMVBurst(t, recs, burst)
	if gap := recs[burst].at.Sub(recs[burst-1].at).Seconds(); gap > 1.5 {
		t.Errorf("the burst's step spans %.3f s", gap)
	}
	for _, i := range []int{burst - 1, burst + 1} {
		if i < 1 || i >= len(recs) {
			continue
		}
		if step := recs[i].value - recs[i-1].value; step > 3*mmvRate {
			t.Errorf("the step beside the burst's, at %s, is %v", recs[i].at.Format("15:04:05.000"), step)
		}
	}
}

// logMMVBurst logs the records around the burst.
func logMMVBurst(t *testing.T, recs []mmvRecorded, burst int) {
	t.Helper()
	var lines []string
	for i := max(1, burst-3); i < min(len(recs), burst+4); i++ {
		lines = append(lines, recs[i].at.Format("15:04:05.000000")+" "+strconv.FormatFloat(recs[i].value, 'f', -1, 64)+
			"  step "+strconv.FormatFloat(recs[i].value-recs[i-1].value, 'f', -1, 64))
	}
	t.Logf("the flight recorder's hostcache.mmv.hctest.requests around the burst:\n%s", strings.Join(lines, "\n"))
}

var (
	dumpTime  = regexp.MustCompile(`^(\d\d:\d\d:\d\d\.\d+) \d+ metrics?$`)
	dumpValue = regexp.MustCompile(`^\s+\S+ \((\S+)\): value (\S+)$`)
)

// mmvArchiveSeries is pmdumplog's records of one singular metric.
func mmvArchiveSeries(t *testing.T, archive, metric string) []mmvRecorded {
	t.Helper()
	out := mustRun(t, time.Minute, "pmdumplog", archive, metric)
	var recs []mmvRecorded
	var at time.Time
	for _, line := range strings.Split(out, "\n") {
		if m := dumpTime.FindStringSubmatch(line); m != nil {
			var err error
			if at, err = time.Parse("15:04:05.000000", m[1]); err != nil {
				t.Fatalf("pmdumplog's time %q: %v", m[1], err)
			}
		} else if m := dumpValue.FindStringSubmatch(line); m != nil && m[1] == metric {
			v, err := strconv.ParseFloat(m[2], 64)
			if err != nil {
				t.Fatalf("pmdumplog's value %q: %v", line, err)
			}
			recs = append(recs, mmvRecorded{at, v})
		}
	}
	return recs
}
