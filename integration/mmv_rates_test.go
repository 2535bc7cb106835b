package integration

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// mmvColumns are the pmrep columns of testMMVRates, one a metric (and
// instance): hostcache's figures beside pmrep's own rate of pmdammv's
// counters and pmdammv's instant.
var mmvColumns = []struct{ label, spec string }{
	{"rate", "hostcache.rate.mmv.hctest.requests"},
	{"mmv", "mmv.hctest.requests"},
	{"max.rate", "hostcache.max.rate.mmv.hctest.requests"},
	{"min.rate", "hostcache.min.rate.mmv.hctest.requests"},
	{"max.depth", "hostcache.max.mmv.hctest.queue.depth"},
	{"mmv.depth", "mmv.hctest.queue.depth"},
	{"rate.south", "hostcache.rate.mmv.hctest.region.requests,,south"},
	{"mmv.south", "mmv.hctest.region.requests,,south"},
	// pmrep's rate of hostcache's own counter, and the age of the sample
	// each fetch was served: hostcache's window runs between the samples
	// served, pmrep's between its fetches.
	{"hc.counter", "hostcache.mmv.hctest.requests"},
	{"age", "hostcache.control.collector.age,,mmv"},
}

// The flapping file's span in testMMVRates: over the last two intervals,
// the burst's among them. The agent's gap between changes then grows to
// 32 s (mmvPace), so the files settle 10 s after the pmrep run ends. Each
// change makes pmcd's clients look the names up again, and PCP's clients
// beside (TestPCP's "in turn", which fetch every metric) are over by
// then.
const mmvFlapFrom, mmvFlapFor = 40 * time.Second, 22 * time.Second

// The writer's figures (testdata/mmv_writer.py): its counter's steady
// rate a second, what a burst adds in one step, and the queue depth it
// holds for that second.
const mmvRate, mmvBurst, mmvBurstDepth = 100, 5000, 900

// testMMVRates: pmrep at 10 s for 60 s; from 40 s in to the end, another
// file (a copy of hctest's, so a valid one, see mmvFlapper) appears and
// goes every 1.25 s. 45 s in, the writer makes a burst, in an interval whose both fetches
// come after the agent learned pmrep's period (its first three fetches),
// so both are served fresh samples. Every interval, hostcache's 10 s rates
// equal pmrep's rates of pmdammv's counters within 1%, the flapping
// file's as the quiet ones: it costs them nothing. In the steady intervals
// both are the writer's rate. In the burst's interval both show the
// average, far below the burst, which max.rate shows (thousands a
// second), as max.depth shows the burst's queue depth.
func testMMVRates(t *testing.T, w *mmvWriter, flap *mmvFlapper) {
	// Samples of the held file would count in the first interval.
	resumed := mmvSamples(t)
	waitFor(t, "three samples since the writer resumed", 15*time.Second, func() bool {
		return mmvSamples(t) >= resumed+3
	})
	start := time.Now()
	rows, out := runMMVPmrep(t, func() {
		flapped := make(chan struct{})
		go func() {
			defer close(flapped)
			time.Sleep(time.Until(start.Add(mmvFlapFrom)))
			flap.run(mmvFlapFor)
		}()
		time.Sleep(time.Until(start.Add(45 * time.Second)))
		w.signal(t, "burst")
		waitFor(t, "the writer's burst", 10*time.Second, func() bool {
			return !fileExists(filepath.Join(w.control, "burst"))
		})
		<-flapped
	})
	t.Logf("pmrep -t 10sec while a file flaps:\n%s", out)
	if flap.err != nil {
		t.Fatalf("the flapping file: %v", flap.err)
	}
	if len(rows) != 7 {
		t.Fatalf("pmrep printed %d rows, want 7", len(rows))
	}
	bursts := 0
	// The first row has no rate of pmdammv's counters: pmrep needs two.
	for _, r := range rows[1:] {
		if !r.complete() {
			t.Errorf("%s: a value is missing: %v", r.at, r.values)
			continue
		}
		within(t, r, "rate", "mmv", 0.01)
		within(t, r, "rate.south", "mmv.south", 0.01)
		if r.get("mmv") < 3*mmvRate {
			checkMMVSteady(t, r)
			continue
		}
		bursts++
		checkMMVBurst(t, r)
	}
	if bursts != 1 {
		t.Errorf("the burst shows in %d intervals of pmdammv's counter, want 1", bursts)
	}
}

// checkMMVSteady: a steady interval's rates are the writer's, and its
// peaks lie near them.
func checkMMVSteady(t *testing.T, r pmrepRow) {
	t.Helper()
	for _, c := range []string{"rate", "mmv"} {
		if math.Abs(r.get(c)-mmvRate) > 0.01*mmvRate {
			t.Errorf("%s: %s is %v a second, the writer's %v", r.at, c, r.get(c), mmvRate)
		}
	}
	if r.get("max.rate") > 3*r.get("mmv") || r.get("min.rate") < r.get("mmv")/3 || r.get("min.rate") > r.get("max.rate") {
		t.Errorf("%s: a steady interval's peaks are max.rate %v, min.rate %v at %v a second",
			r.at, r.get("max.rate"), r.get("min.rate"), r.get("mmv"))
	}
}

// checkMMVBurst: the burst's interval shows the burst in its peaks and
// only its average in the 10 s rates.
func checkMMVBurst(t *testing.T, r pmrepRow) {
	t.Helper()
	if r.get("max.rate") < mmvBurst*0.9 || r.get("max.rate") < 5*r.get("rate") {
		t.Errorf("%s: the burst's interval has max.rate %v, rate %v", r.at, r.get("max.rate"), r.get("rate"))
	}
	// Over 10 s, pmdammv's counter gives the burst's average only.
	if avg := mmvBurst/10.0 + mmvRate; math.Abs(r.get("mmv")-avg) > 0.05*avg {
		t.Errorf("%s: pmdammv's counter rose %v a second over the burst's interval, want about %v", r.at, r.get("mmv"), avg)
	}
	if r.get("max.depth") != mmvBurstDepth {
		t.Errorf("%s: the burst's interval has max.depth %v, want %v", r.at, r.get("max.depth"), mmvBurstDepth)
	}
}

// pmrepRow is one row of pmrep's values, by column label.
type pmrepRow struct {
	at     string
	values map[string]float64
}

func (r pmrepRow) get(label string) float64 { return r.values[label] }

// complete says whether every column has a number.
func (r pmrepRow) complete() bool {
	for _, v := range r.values {
		if math.IsNaN(v) {
			return false
		}
	}
	return len(r.values) == len(mmvColumns)
}

// within reports a row where column a differs from b by more than frac of b.
func within(t *testing.T, r pmrepRow, a, b string, frac float64) {
	t.Helper()
	if math.Abs(r.get(a)-r.get(b)) > frac*math.Abs(r.get(b)) {
		t.Errorf("%s: %s %v and %s %v differ by more than %v%%", r.at, a, r.get(a), b, r.get(b), 100*frac)
	}
}

var pmrepTime = regexp.MustCompile(`^\d\d:\d\d:\d\d$`)

// runMMVPmrep runs pmrep over mmvColumns at 10 s, seven rows, calling during
// meanwhile; it returns the rows and pmrep's output.
func runMMVPmrep(t *testing.T, during func()) ([]pmrepRow, string) {
	t.Helper()
	args := []string{"-p", "-t", "10sec", "-s", "7", "-P", "2", "-w", "11"}
	for _, c := range mmvColumns {
		spec, inst, _ := strings.Cut(c.spec, ",,")
		args = append(args, spec+","+c.label+","+inst)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pmrep", args...)
	// pmrep runs PCP's python3 through pmpython, found on PATH.
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:"+os.Getenv("PATH"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("pmrep: %v", err)
	}
	during()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("pmrep %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return pmrepRows(t, out.String()), out.String()
}

// pmrepRows reads pmrep's timestamped rows; N/A reads as NaN.
func pmrepRows(t *testing.T, out string) []pmrepRow {
	t.Helper()
	var rows []pmrepRow
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !pmrepTime.MatchString(f[0]) {
			continue
		}
		if len(f) != len(mmvColumns)+1 {
			t.Fatalf("pmrep row %q has %d columns, want %d", line, len(f)-1, len(mmvColumns))
		}
		r := pmrepRow{at: f[0], values: map[string]float64{}}
		for i, c := range mmvColumns {
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				v = math.NaN()
			}
			r.values[c.label] = v
		}
		rows = append(rows, r)
	}
	return rows
}
