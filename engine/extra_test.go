package engine

import (
	"math"
	"testing"
	"time"
)

// sampleExtra publishes step at time at as an extra sample: one taken
// between grid samples for a reader's phase.
func (g *intervalRig) sampleExtra(at time.Time, step scriptStep) {
	g.t.Helper()
	g.src.step, g.now = step, at
	if err := g.r.collect(g.r.entries[0], at, true); err != nil {
		g.t.Fatal(err)
	}
}

// bursty is steady with a burst in instance 0 at the half seconds: what
// only extra samples see, and where a step peak over them would differ.
func bursty(k int, half bool) scriptStep {
	s := steady(k)
	if half {
		s.count[0] += 1000
		s.ms += 100
		s.gauge = 100
	}
	return s
}

var peakNames = []string{
	"hostcache.max.rate.test.count", "hostcache.min.rate.test.count",
	"hostcache.max.test.util", "hostcache.min.test.util", "hostcache.max.test.gauge",
}

// Extra samples between the grid's change no peak: a client fetching
// every four grid samples gets the same peaks whether or not extras were
// taken inside its interval.
func TestExtraSamplesChangeNoPeak(t *testing.T) {
	grid, mixed := newIntervalRig(t, time.Minute), newIntervalRig(t, time.Minute)
	for k := 0; k <= 12; k++ {
		grid.sample(at(k), steady(k))
		mixed.sample(at(k), steady(k))
		if k%4 != 0 || k == 0 {
			// The burst is seen by the extra sample only; the counter
			// is back on course at the next grid sample (it grew less).
			mixed.sampleExtra(at(k).Add(ms(500)), scriptStep{count: [2]uint64{steady(k).count[0] + 1, steady(k).count[1]}, ms: steady(k).ms + 1, gauge: 100})
		}
		if k%4 != 0 {
			continue
		}
		for _, name := range peakNames {
			want, got := grid.fetch(1, name), mixed.fetch(1, name)
			for inst, w := range want {
				if v, ok := got[inst]; !ok || math.Abs(v-w) > 1e-9*math.Max(1, math.Abs(w)) {
					t.Errorf("k=%d %s[%d] = %v with extras (%v), %v without", k, name, inst, v, ok, w)
				}
			}
		}
	}
}

// The rate over a window ending at an extra sample is exact: the
// counter's growth from the window's start to the extra sample, per
// second of that span, whatever the steps between.
func TestRateToAnExtraSampleIsExact(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.fetch(1, "hostcache.rate.test.count") // the client's interval starts here
	g.fetch(1, "hostcache.rate.test.ms")
	g.sample(at(1), steady(1))
	g.sample(at(2), steady(2))
	extraAt := at(2).Add(ms(250))
	step := bursty(2, true)
	g.sampleExtra(extraAt, step)
	secs := extraAt.Sub(at(0)).Seconds()
	g.want(1, "hostcache.rate.test.count", 0, float64(step.count[0])/secs)
	g.want(1, "hostcache.rate.test.ms", 1<<32-1, float64(step.ms)/1000/secs)
	// The next interval starts at the extra sample and ends at a grid one.
	next := steady(3)
	next.count[0] += 2000
	g.sample(at(3), next)
	g.want(1, "hostcache.rate.test.count", 0, float64(next.count[0]-step.count[0])/at(3).Sub(extraAt).Seconds())
}

// A window holding no grid step end (an extra sample to the next, within
// an interval) is one step itself; the sample peaks include the window's
// end, the value the client is shown, even when it is an extra sample.
func TestWindowWithoutGridStepIsOneStep(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.sampleExtra(at(1).Add(ms(100)), steady(1))
	g.fetch(1, "hostcache.rate.test.count")
	end := bursty(1, true)
	g.sampleExtra(at(1).Add(ms(900)), end)
	rate := float64(end.count[0]-steady(1).count[0]) / 0.8
	g.want(1, "hostcache.max.rate.test.count", 0, rate)
	g.want(1, "hostcache.max.test.gauge", 0xffffffff, 100)
}
