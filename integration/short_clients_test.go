//go:build linux

package integration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The CPU time counters whose rates add up to every CPU's whole second:
// PCP's tools compute them on the client side, from the counters and the
// time of each fetch.
var scCPUTimes = []string{"user", "nice", "sys", "idle", "wait.total", "steal", "intr"}

// scClients, scFetches: short-lived clients, each a new context fetching
// scFetches times 1 s apart at a random phase of the second.
const (
	scClients = 16
	scFetches = 6
	scOff     = 0.15 // an interval's CPU total further off than this is wrong
)

// testShortClients holds the agent to pmdalinux's freshness for clients
// that have just connected: pmstat, pmrep, pcp-dstat or a grafana panel
// rate the counters over pmcd's time of each fetch, so each fetch must be
// served a sample as of that fetch, from the first on. Sixteen clients at
// random phases read the CPU times below prefix, and pmrep prints them;
// beside pmdalinux, each fetch reads pmdalinux's CPU times too
// (reference). Every interval's CPU total must be within 15% of the CPUs'
// whole second, unless pmdalinux's own was off in the same interval (the
// machine stalled the client). TestPCP runs it beside pmdalinux,
// TestStandIn in its place; both then check that each fetch of a network
// counter lies between the kernel's readings around it (afAsOfTheFetch).
func testShortClients(t *testing.T, prefix, reference string) {
	client := ffBuildClient(t)
	names := scNames(prefix)
	if reference != "" {
		names = append(names, scNames(reference)...)
	}
	scJudge(t, client, names, prefix)
}

// scNames are the CPU time metrics below prefix.
func scNames(prefix string) []string {
	out := make([]string, len(scCPUTimes))
	for i, m := range scCPUTimes {
		out[i] = prefix + m
	}
	return out
}

// scJudge runs the short clients on names (the first seven judged, the
// next seven, if any, pmdalinux's, for reference) and pmrep on the seven
// below pmrepPrefix, and judges every interval.
func scJudge(t *testing.T, client string, names []string, pmrepPrefix string) {
	ncpu := float64(runtime.NumCPU())
	type result struct {
		fetches []ffFetch
		err     error
	}
	results := make([]result, scClients)
	var wg sync.WaitGroup
	for i := range scClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A random start inside a random second: each client's phase.
			time.Sleep(time.Duration(rand.IntN(3000)) * time.Millisecond)
			offset := strconv.Itoa(rand.IntN(1000))
			cmd := exec.Command(client, append([]string{strconv.Itoa(scFetches), "1000", offset}, names...)...)
			r := &ffRun{cmd: cmd}
			cmd.Stdout, cmd.Stderr = &r.out, &r.out
			r.err = cmd.Start()
			results[i].fetches, results[i].err = r.wait()
		}()
	}
	pmrepRows := make(chan []float64, 64)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(pmrepRows)
		time.Sleep(time.Duration(1000+rand.IntN(1000)) * time.Millisecond)
		scPmrep(t, scNames(pmrepPrefix), pmrepRows)
	}()
	wg.Wait()

	var judged, off, noise int
	var lines []string
	for i, r := range results {
		if r.err != nil || len(r.fetches) < scFetches {
			t.Fatalf("client %d: %d fetches: %v", i, len(r.fetches), r.err)
		}
		for k := 1; k < len(r.fetches); k++ {
			a, b := r.fetches[k-1], r.fetches[k]
			ours := scTotal(a, b, 0, ncpu)
			line := fmt.Sprintf("client %2d interval %d: %5.1f%%", i, k, 100*ours)
			theirs := math.NaN()
			if len(names) >= 2*len(scCPUTimes) {
				theirs = scTotal(a, b, len(scCPUTimes), ncpu)
				line += fmt.Sprintf(" (pmdalinux %5.1f%%)", 100*theirs)
			}
			judged++
			switch {
			case math.Abs(ours-1) <= scOff:
			case !math.IsNaN(theirs) && math.Abs(theirs-1) > scOff:
				noise++
				line += "  machine stall: pmdalinux off too"
			default:
				off++
				line += "  OFF"
			}
			lines = append(lines, line)
		}
	}
	var rows int
	for row := range pmrepRows {
		total := 0.0
		for _, v := range row {
			total += v
		}
		total /= ncpu * 1000
		rows++
		line := fmt.Sprintf("pmrep row %d: %5.1f%%", rows, 100*total)
		judged++
		if math.Abs(total-1) > scOff {
			off++
			line += "  OFF"
		}
		lines = append(lines, line)
	}
	t.Logf("CPU totals, %d intervals:\n%s", judged, strings.Join(lines, "\n"))
	if rows < scFetches-2 {
		t.Errorf("pmrep printed %d rows of rates, want %d at least", rows, scFetches-2)
	}
	if off > 0 {
		t.Errorf("%d of %d intervals' CPU totals more than %.0f%% off (%d more while pmdalinux's was off too)",
			off, judged, 100*scOff, noise)
	}
	if noise > judged/10 {
		t.Errorf("pmdalinux's own totals were off in %d of %d intervals: the machine is too loaded to judge", noise, judged)
	}
}

// scTotal is the sum of seven CPU time counters from column col on, over
// the interval from fetch a to b, as a share of every CPU's whole time.
func scTotal(a, b ffFetch, col int, ncpu float64) float64 {
	secs := b.at - a.at
	sum := 0.0
	for k := col; k < col+len(scCPUTimes); k++ {
		sum += b.values[k] - a.values[k]
	}
	return sum / (secs * 1000 * ncpu)
}

// scPmrep runs pmrep for a few seconds on names, at 1 s, and sends each
// row of rates it prints (ms/s for each name).
func scPmrep(t *testing.T, names []string, rows chan<- []float64) {
	args := append([]string{"-t", "1", "-s", strconv.Itoa(scFetches), "-o", "csv"}, names...)
	cmd := exec.Command("pmrep", args...)
	// pmrep runs PCP's python3 through pmpython, found on PATH.
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("pmrep: %v\n%s", err, out)
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
		f := strings.Split(line, ",")
		if len(f) != len(names)+1 || f[1] == "" {
			continue // the first row has no rate yet
		}
		row := make([]float64, 0, len(names))
		for _, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Errorf("pmrep printed %q in %q", s, line)
				return
			}
			row = append(row, v)
		}
		rows <- row
	}
}
