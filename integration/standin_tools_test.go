//go:build linux

package integration

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

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
// upTo has n samples, and every other collector one, as does one slowed
// down for want of readers (the process groups, until a client reads
// them). The deadline allows
// n of the slowest such interval and 30 s more, for a loaded host; on
// failure it names the collectors still short.
func waitForSamples(t *testing.T, n int, upTo time.Duration) {
	t.Helper()
	start := time.Now()
	for {
		short, slowest := shortCollectors(t, n, upTo)
		if short == nil {
			t.Logf("%d samples of every collector after %v", n, time.Since(start).Round(time.Second))
			return
		}
		if time.Since(start) > time.Duration(n)*slowest+30*time.Second {
			t.Fatalf("timed out waiting for %d samples of every collector sampling every %v or more often: %s",
				n, upTo, strings.Join(short, "; "))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// shortCollectors names the collectors short of their samples (all of
// them while the agent answers none), and gives the slowest interval of
// those that must reach n.
func shortCollectors(t *testing.T, n int, upTo time.Duration) (short []string, slowest time.Duration) {
	samples := values(t, "hostcache.control.collector.samples")
	intervals := values(t, "hostcache.control.collector.interval")
	idle := values(t, "hostcache.control.collector.idle")
	if len(samples) == 0 {
		return []string{"no collector answers"}, 0
	}
	for inst, v := range samples {
		want := n
		ms, _ := strconv.Atoi(intervals[inst])
		if every := time.Duration(ms) * time.Millisecond; every > upTo || idle[inst] == "1" {
			want = 1
		} else if every > slowest {
			slowest = every
		}
		if got, err := strconv.Atoi(v); err != nil || got < want {
			short = append(short, fmt.Sprintf("%s has %s of %d (every %d ms)", inst, v, want, ms))
		}
	}
	sort.Strings(short)
	return short, slowest
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
