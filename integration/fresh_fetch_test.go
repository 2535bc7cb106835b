//go:build linux

package integration

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// testFreshFetch checks that every periodic reader, whatever its phase,
// is served a sample taken just before its fetch. Libpcp clients fetch
// through the real pmcd, all at once, while the host carries the bursty
// load of testUnderLoad: six at 1 s, 0, 250, 480, 500, 520 and 750 ms
// past each second, and one at 10 s, 420 ms past.
// Each fetch reads, in one pmFetch, hostcache's 1 s counter, pmdalinux's
// twin and the age of the cpu collector's served sample. For each client,
// after its first three fetches (a reader's period is learned from its
// fetches):
//
//   - the served sample's age at the fetch: median ≤ 50 ms, p99 ≤ 200 ms;
//   - a repeated hostcache value while pmdalinux's twin moved, and a
//     doubled step (hostcache's step ≥ 1.8x its median while pmdalinux's
//     is not), each at most once in the 1 s intervals (1.7% of 60);
//   - at 10 s, hostcache.rate of intr and pswitch against pmdalinux's
//     counters over the client's own fetches: median relative error ≤ 1%.
func testFreshFetch(t *testing.T, load *underLoad) {
	if load.phaseFetchErr != nil {
		testenv.SkipOutsideCI(t, "cannot build the phase client (cc and libpcp's headers, libpcp3-dev): "+load.phaseFetchErr.Error())
	}
	load.waitT0(t)
	runs := ffStart(load.phaseFetch, ffClients)
	// The burst (ciBurstAt) lies inside the 10 s client's fourth
	// interval, one it is judged on.
	t.Logf("load: %s", load.waitBurst(t))
	r := &ciReport{t: t}
	r.logf("%-10s %7s %12s %9s %9s %9s", "phase", "fetches", "age median", "age p99", "repeats", "doubles")
	for i, c := range ffClients {
		fetches, err := runs[i].wait()
		if err != nil {
			r.failf("%s: %v", c.label(), err)
		}
		c.judge(r, fetches)
	}
	r.finish(true)
}

// ffClient is one periodic reader: n fetches of metrics, period apart,
// the first offset past a whole second.
type ffClient struct {
	period, offset time.Duration
	n              int
	metrics        []string
}

// ffAge is the cpu collector's age, which serves kernel.all.intr and
// pswitch, both counters its 1 s samples hold.
const ffAge = "hostcache.control.collector.age[cpu]"

// ffSettled is how many first fetches are not judged: the agent learns
// a reader's period and phase from them.
const ffSettled = 3

// ffClients: 64 fetches at 1 s give 60 intervals after the first three
// fetches, of which one may hold a repeated or doubled step (a single
// burst of interrupts at a step's edge); 7 at 10 s give three judged
// intervals, the burst inside the first; both end about 64 s after the
// start, with the loggers' and the process churn's checks.
var ffClients = func() []ffClient {
	one := []string{"hostcache.kernel.all.intr", "kernel.all.intr", ffAge}
	var cs []ffClient
	for _, ms := range []int{0, 250, 480, 500, 520, 750} {
		cs = append(cs, ffClient{time.Second, time.Duration(ms) * time.Millisecond, 64, one})
	}
	return append(cs, ffClient{10 * time.Second, 420 * time.Millisecond, 7, []string{
		"hostcache.rate.kernel.all.intr", "kernel.all.intr",
		"hostcache.rate.kernel.all.pswitch", "kernel.all.pswitch", ffAge,
	}})
}()

func (c ffClient) label() string {
	return fmt.Sprintf("%d ms/%gs", c.offset.Milliseconds(), c.period.Seconds())
}

// ffFetch is one line of the client: its time (seconds since the epoch)
// and the metrics' values in the order asked.
type ffFetch struct {
	at     float64
	values []float64
}

// ffRun is a client process under way.
type ffRun struct {
	cmd *exec.Cmd
	out strings.Builder
	err error
}

// ffStart starts every client at once.
func ffStart(bin string, clients []ffClient) []*ffRun {
	runs := make([]*ffRun, len(clients))
	for i, c := range clients {
		args := []string{strconv.Itoa(c.n), strconv.FormatInt(c.period.Milliseconds(), 10),
			strconv.FormatInt(c.offset.Milliseconds(), 10)}
		r := &ffRun{cmd: exec.Command(bin, append(args, c.metrics...)...)}
		r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
		r.err = r.cmd.Start()
		runs[i] = r
	}
	return runs
}

// wait waits for the client and parses its lines.
func (r *ffRun) wait() ([]ffFetch, error) {
	if r.err == nil {
		r.err = r.cmd.Wait()
	}
	var fetches []ffFetch
	for _, line := range strings.Split(r.out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		fe := ffFetch{at: at}
		for _, s := range f[1:] {
			v, _ := strconv.ParseFloat(s, 64) // "nan" parses as NaN
			fe.values = append(fe.values, v)
		}
		fetches = append(fetches, fe)
	}
	if r.err != nil {
		return fetches, fmt.Errorf("%v: %s", r.err, r.out.String())
	}
	return fetches, nil
}

// judge applies the bounds to one client's fetches.
func (c ffClient) judge(r *ciReport, fetches []ffFetch) {
	if len(fetches) < c.n {
		r.failf("%s: %d fetches of %d", c.label(), len(fetches), c.n)
		return
	}
	ages := ffColumn(fetches[ffSettled:], len(c.metrics)-1)
	med, p99 := ciQuantile(ages, 0.5), ciQuantile(ages, 0.99)
	if c.period == time.Second {
		ffJudgeSteps(r, c.label(), fetches, med, p99)
	} else {
		r.logf("%-10s %7d %9.0f ms %6.0f ms", c.label(), len(fetches), med, p99)
		ffJudgeRates(r, c.label(), fetches)
	}
	if !(med <= 50 && p99 <= 200) {
		r.failf("%s: served sample age median %.0f ms, p99 %.0f ms (bounds 50 and 200 ms); ages %v",
			c.label(), med, p99, ffColumn(fetches, len(c.metrics)-1))
	}
}

// ffColumn is the k-th value of every fetch.
func ffColumn(fetches []ffFetch, k int) []float64 {
	var out []float64
	for _, f := range fetches {
		if k < len(f.values) {
			out = append(out, f.values[k])
		}
	}
	return out
}

// ffJudgeSteps counts, over the steps between judged fetches, hostcache's
// counter repeating while pmdalinux's twin moved, and hostcache's step at
// least 1.8x its median while pmdalinux's was not.
func ffJudgeSteps(r *ciReport, label string, fetches []ffFetch, ageMed, ageP99 float64) {
	var ours, theirs []float64
	for i := ffSettled + 1; i < len(fetches); i++ {
		a, b := fetches[i-1].values, fetches[i].values
		ours, theirs = append(ours, b[0]-a[0]), append(theirs, b[1]-a[1])
	}
	medOurs, medTheirs := ciQuantile(ours, 0.5), ciQuantile(theirs, 0.5)
	repeats, doubles := 0, 0
	for i := range ours {
		if ours[i] == 0 && theirs[i] > 0 {
			repeats++
		}
		if ours[i] >= 1.8*medOurs && theirs[i] < 1.8*medTheirs {
			doubles++
		}
	}
	steps := len(ours)
	r.logf("%-10s %7d %9.0f ms %6.0f ms %5d/%-3d %5d/%-3d", label, len(fetches), ageMed, ageP99,
		repeats, steps, doubles, steps)
	if allowed := max(1, steps/100); repeats > allowed || doubles > allowed {
		r.failf("%s: %d repeated and %d doubled steps of hostcache.kernel.all.intr in %d (at most %d each)",
			label, repeats, doubles, steps, allowed)
	}
}

// ffJudgeRates compares the 10 s client's hostcache.rate figures with
// pmdalinux's counters as rates over the same two fetches. A rate under
// 100/s takes 100/s as the base of its relative error: a nearly idle
// interval's few stray events are not a large error.
func ffJudgeRates(r *ciReport, label string, fetches []ffFetch) {
	for _, p := range []struct {
		name       string
		ours, twin int
	}{{"intr", 0, 1}, {"pswitch", 2, 3}} {
		var judged, all []string
		var errs []float64
		for k := 1; k < len(fetches); k++ {
			a, b := fetches[k-1], fetches[k]
			theirs := (b.values[p.twin] - a.values[p.twin]) / (b.at - a.at)
			e := math.Abs(b.values[p.ours]-theirs) / math.Max(theirs, 100)
			all = append(all, fmt.Sprintf("%.2f%%", 100*e))
			if k-1 >= ffSettled {
				errs = append(errs, e)
				judged = append(judged, fmt.Sprintf("%.2f%%", 100*e))
			}
		}
		med := ciQuantile(errs, 0.5)
		r.logf("%s hostcache.rate.kernel.all.%s against pmdalinux's: median %.2f%% over %d judged intervals %v (every interval %v)",
			label, p.name, 100*med, len(errs), judged, all)
		if len(errs) < 3 || !(med <= 0.01) {
			r.failf("%s: hostcache.rate.kernel.all.%s median relative error %.2f%% over %d intervals (bound 1%%)",
				label, p.name, 100*med, len(errs))
		}
	}
}

// ffBuildClient compiles testdata/phasefetch.c against libpcp. Without a
// compiler or libpcp's headers the test skips, except in CI.
func ffBuildClient(t *testing.T) string {
	t.Helper()
	bin, err := ccBuild(t.TempDir(), "phasefetch")
	if err != nil {
		testenv.SkipOutsideCI(t, "cannot build the phase client (cc and libpcp's headers, libpcp3-dev): "+err.Error())
	}
	return bin
}

// ccBuild builds testdata/name.c against libpcp into dir.
func ccBuild(dir, name string) (string, error) {
	bin := filepath.Join(dir, name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "cc", "-O2", "-Wall", "-o", bin,
		filepath.Join(repoRoot, "integration", "testdata", name+".c"), "-lpcp").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return bin, nil
}
