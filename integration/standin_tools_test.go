//go:build linux

package integration

import (
	"fmt"
	"os"
	"strconv"
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
