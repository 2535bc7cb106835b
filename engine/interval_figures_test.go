package engine

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A source with two instances of a counter, a singular millisecond counter
// and an instant with peaks, published from a script.
var (
	ivCount = Metric("hostcache.test.count", 9, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, 9)
	ivMS    = Metric("hostcache.test.ms", 9, 2, cache.TypeU64, cache.SemCounter, cache.UnitsMSec, cache.InDomNone)
	ivGauge = WithPeaks(Metric("hostcache.test.gauge", 9, 3, cache.TypeDouble, cache.SemInstant, cache.UnitsNone, cache.InDomNone))
	ivUtil  = Metric("hostcache.test.util", 9, 4, cache.TypeDouble, cache.SemInstant, cache.UnitsNone, cache.InDomNone)
)

// scriptStep is what the scripted source publishes at one sample.
type scriptStep struct {
	count [2]uint64 // instances 0 and 1; instance 1 is absent when count[1] is noInst
	ms    uint64
	gauge float64
	renew bool // instance 0 is a new thing under its old id
}

const noInst = math.MaxUint64

type scriptSource struct {
	step scriptStep
}

func (s *scriptSource) Name() string { return "script" }

func (s *scriptSource) Source() cache.Source {
	return cache.Source{Name: "script", Metrics: []cache.Desc{ivCount, ivMS, ivGauge},
		InDoms: []cache.InDomDesc{{ID: 9, Name: "things"}}}
}

func (s *scriptSource) Sample(b *cache.Builder, _ time.Time) error {
	for inst, v := range s.step.count {
		if v != noInst {
			b.SetU64(ivCount.ID, uint32(inst), v)
		}
	}
	b.SetU64(ivMS.ID, cache.InstNone, s.step.ms)
	b.SetDouble(ivGauge.ID, cache.InstNone, s.step.gauge)
	if s.step.renew {
		b.Renew(0)
	}
	return nil
}

// Derived declares test.util = 100 * rate(test.ms) / 1000: the busy
// percentage of one CPU, as cpu-util.conf derives it.
func (s *scriptSource) Derived() []Derived {
	return []Derived{{Desc: ivUtil, Like: ivMS.ID, Peaks: true, Value: func(w *Window, inst uint32) (float64, bool) {
		d, secs, ok := w.DeltaSeconds(ivMS.ID, inst)
		if !ok || secs <= 0 {
			return 0, false
		}
		return 100 * float64(d) / 1000 / secs, true
	}}}
}

type intervalRig struct {
	t     *testing.T
	src   *scriptSource
	r     *Runner
	front *cache.Front
	now   time.Time
}

func newIntervalRig(t *testing.T, history time.Duration) *intervalRig {
	return newRigWith(t, Schedule{Default: time.Second, History: history, MaxClients: 8})
}

func newRigWith(t *testing.T, sched Schedule) *intervalRig {
	g := &intervalRig{t: t, src: &scriptSource{}}
	g.r = NewRunner(zerolog.Nop(), []Collector{g.src}, sched)
	schema, err := cache.NewSchema(g.r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	g.front = cache.NewFront(schema)
	if err := g.r.Attach(g.front); err != nil {
		t.Fatal(err)
	}
	return g
}

// sample publishes step at time at.
func (g *intervalRig) sample(at time.Time, step scriptStep) {
	g.t.Helper()
	g.src.step, g.now = step, at
	if err := g.r.SampleAt(at); err != nil {
		g.t.Fatal(err)
	}
}

// fetch reads metric name for client as of the newest sample.
func (g *intervalRig) fetch(client int32, name string) map[uint32]float64 {
	g.t.Helper()
	d, ok := g.front.Schema().Lookup(name)
	if !ok {
		g.t.Fatalf("no metric %s", name)
	}
	q := cache.Request{Snap: g.front.Load(), Now: g.now, Client: client}
	out := map[uint32]float64{}
	for _, v := range q.AppendValues(nil, d) {
		out[v.Inst] = decode(d.Type, v.Bits)
	}
	return out
}

func (g *intervalRig) want(client int32, name string, inst uint32, want float64) {
	g.t.Helper()
	got, ok := g.fetch(client, name)[inst]
	switch {
	case math.IsNaN(want) && ok:
		g.t.Errorf("client %d %s[%d] = %v, want no value", client, name, inst, got)
	case !math.IsNaN(want) && !ok:
		g.t.Errorf("client %d %s[%d]: no value, want %v", client, name, inst, want)
	case ok && math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)):
		g.t.Errorf("client %d %s[%d] = %v, want %v", client, name, inst, got, want)
	}
}

var t0 = time.Unix(1795320600, 0)

// at is the time of sample k, one second apart.
func at(k int) time.Time { return t0.Add(time.Duration(k) * time.Second) }

// steady is instance 0 growing by 10*k² (so each step's rate differs),
// instance 1 by 5 a second, ms by 250 a second, gauge = k.
func steady(k int) scriptStep {
	return scriptStep{count: [2]uint64{uint64(10 * k * k), uint64(5 * k)}, ms: uint64(250 * k), gauge: float64(k)}
}

// Clients fetching every 1, 3 and 10 samples each get the rate over their
// own interval, exactly: (v_k - v_{k-n}) / n seconds.
func TestRatesOverEachClientsInterval(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	every := map[int32]int{1: 1, 3: 3, 10: 10}
	last := map[int32]int{}
	for k := 0; k <= 30; k++ {
		g.sample(at(k), steady(k))
		for c, n := range every {
			if k%n != 0 {
				continue
			}
			from := last[c]
			if k == 0 {
				g.want(c, "hostcache.rate.test.count", 0, math.NaN()) // one sample: no rate
				g.fetch(c, "hostcache.rate.test.ms")
				g.fetch(c, "hostcache.test.util")
				last[c] = 0 // but the next interval starts here
				continue
			}
			if _, seen := last[c]; !seen {
				from = k - 1 // a first fetch: the newest step
			}
			secs := float64(k - from)
			g.want(c, "hostcache.rate.test.count", 0, float64(10*k*k-10*from*from)/secs)
			g.want(c, "hostcache.rate.test.count", 1, 5)
			g.want(c, "hostcache.rate.test.ms", cache.InstNone, 0.25) // ms/s is seconds per second
			g.want(c, "hostcache.test.util", cache.InstNone, 25)
			last[c] = k
		}
	}
}

// Each metric keeps its own mark: a client logging one metric every 10 s
// and another every second gets both over their own intervals.
func TestMarksAreKeptPerMetric(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count")
	g.fetch(1, "hostcache.rate.test.ms")
	for k := 2; k <= 11; k++ {
		g.sample(at(k), steady(k))
		g.fetch(1, "hostcache.rate.test.ms") // every second
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*121-10*1)/10)
}

// No new sample since the client's last fetch: the newest step again.
func TestFetchWithoutNewSampleGetsNewestStep(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	for k := 0; k <= 3; k++ {
		g.sample(at(k), steady(k))
	}
	g.want(4, "hostcache.rate.test.count", 0, 10*9-10*4)
	g.want(4, "hostcache.rate.test.count", 0, 10*9-10*4)
}

// A counter that goes backwards inside a window costs that step only: the
// rate is the growth over the good steps per second of them.
func TestResetInsideWindow(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{100, 100}})
	g.fetch(1, "hostcache.rate.test.count")
	g.sample(at(1), scriptStep{count: [2]uint64{110, 105}})
	g.sample(at(2), scriptStep{count: [2]uint64{3, 110}}) // instance 0 reset
	g.sample(at(3), scriptStep{count: [2]uint64{13, 115}})
	g.want(1, "hostcache.rate.test.count", 0, (10.0+10)/2)
	g.want(1, "hostcache.rate.test.count", 1, 5)
	g.want(1, "hostcache.max.rate.test.count", 0, 10) // a first fetch: the newest step only
	if n := g.r.entries[0].stats.resets.Load(); n != 1 {
		t.Errorf("resets = %d, want 1", n)
	}
}

// A counter that goes backwards costs the peaks of that counter's
// instance only: another counter of the source (vmstat has levels that
// pmdalinux declares counters, which go down often) keeps its peaks over
// the same step.
func TestResetCostsOnlyItsOwnPeak(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{100, 100}, ms: 0})
	g.sample(at(1), scriptStep{count: [2]uint64{3, 105}, ms: 500}) // instance 0 reset
	g.want(1, "hostcache.max.rate.test.count", 1, 5)
	g.want(1, "hostcache.min.rate.test.count", 1, 5)
	g.want(1, "hostcache.max.rate.test.count", 0, math.NaN())
	g.want(1, "hostcache.rate.test.ms", cache.InstNone, 0.5)
	g.want(1, "hostcache.max.rate.test.ms", cache.InstNone, 0.5)
}

// An instance that appears inside a window is rated over the steps it
// existed for; one that is gone at the end has no value.
func TestInstanceAppearsInsideWindow(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{0, noInst}})
	g.fetch(1, "hostcache.rate.test.count")
	g.sample(at(1), scriptStep{count: [2]uint64{10, noInst}})
	g.sample(at(2), scriptStep{count: [2]uint64{20, 1000}})
	g.sample(at(3), scriptStep{count: [2]uint64{30, 1004}})
	g.want(1, "hostcache.rate.test.count", 0, 10)
	g.want(1, "hostcache.rate.test.count", 1, 4) // one step of the three
}

// Peaks: the highest and lowest per-step rate inside the client's
// interval, and the highest and lowest sample of an instant.
func TestPeaksInsideInterval(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.fetch(1, "hostcache.max.rate.test.count")
	g.fetch(1, "hostcache.min.rate.test.count")
	g.fetch(1, "hostcache.max.test.gauge")
	g.fetch(1, "hostcache.max.test.util")
	burst := []uint64{0, 10, 1010, 1020, 1030} // a 1000/s second inside 4 s
	for k := 1; k <= 4; k++ {
		g.sample(at(k), scriptStep{count: [2]uint64{burst[k], 0}, ms: uint64([]int{0, 100, 1100, 1200, 1300}[k]), gauge: []float64{0, 3, 9, 1, 2}[k]})
	}
	g.want(1, "hostcache.max.rate.test.count", 0, 1000)
	g.want(1, "hostcache.min.rate.test.count", 0, 10)
	g.want(1, "hostcache.max.test.gauge", cache.InstNone, 9)
	g.want(1, "hostcache.max.test.util", cache.InstNone, 100)
	g.want(2, "hostcache.min.test.gauge", cache.InstNone, 2) // first fetch: the newest sample
}

// After a restart the first step may be a few milliseconds: no figure
// covers less than half the collector's interval.
func TestNoRateOverAShortStartupStep(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(t0, scriptStep{count: [2]uint64{0, 0}})
	g.sample(t0.Add(3*time.Millisecond), scriptStep{count: [2]uint64{500, 0}})
	g.want(1, "hostcache.rate.test.count", 0, math.NaN())
	g.sample(t0.Add(time.Second), scriptStep{count: [2]uint64{1000, 0}})
	g.want(2, "hostcache.rate.test.count", 0, 500/0.997) // the last step is long enough
	g.want(3, "hostcache.rate.test.count", 0, 500/0.997)
}

// A client whose last fetch is older than the history starts from the
// oldest sample kept.
func TestMarkOlderThanHistory(t *testing.T) {
	g := newIntervalRig(t, 5*time.Second) // 6 samples kept
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count")
	for k := 2; k <= 20; k++ {
		g.sample(at(k), steady(k))
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*400-10*15*15)/5)
}

// Reading the windowed metrics allocates nothing once a client is known:
// the fetch path stays allocation-free.
func TestWindowedReadsDoNotAllocate(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	for k := 0; k <= 12; k++ {
		g.sample(at(k), steady(k))
	}
	var descs []*cache.Desc
	for _, n := range []string{"hostcache.rate.test.count", "hostcache.max.rate.test.count",
		"hostcache.test.util", "hostcache.max.test.util", "hostcache.max.test.gauge"} {
		d, _ := g.front.Schema().Lookup(n)
		descs = append(descs, d)
	}
	q := cache.Request{Snap: g.front.Load(), Now: g.now, Client: 3}
	dst := make([]cache.Value, 0, 64)
	read := func() {
		for _, d := range descs {
			dst = q.AppendValues(dst[:0], d)
		}
	}
	read() // the client's marks are made on its first fetch
	if n := testing.AllocsPerRun(100, read); n != 0 {
		t.Errorf("%v allocations per read of the windowed metrics", n)
	}
}

// Reads race the sampler: the ring is read without locks while samples are
// added and dropped (run with -race).
func TestWindowedReadsRaceSampling(t *testing.T) {
	src := &scriptSource{}
	r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: 100 * time.Millisecond, History: time.Second, HistoryBudget: 1024})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	if err := r.Attach(front); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a cap: the reads end sooner
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	var names []*cache.Desc
	for _, n := range []string{"hostcache.rate.test.count", "hostcache.max.rate.test.count", "hostcache.test.util", "hostcache.min.test.gauge"} {
		d, _ := schema.Lookup(n)
		names = append(names, d)
	}
	var wg sync.WaitGroup
	reads := make([]int, 2)
	// Each client reads until it has had values and the sampler has taken
	// seven samples: the reads race the ring's adds and its drops (the
	// budget keeps a few samples only).
	enough := func(c int) bool { return reads[c] > 0 && r.entries[0].stats.samples.Load() >= 7 }
	for c := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && !enough(c) {
				q := cache.Request{Snap: front.Load(), Now: time.Now(), Client: int32(c)}
				for _, d := range names {
					reads[c] += len(q.AppendValues(nil, d))
				}
				r.Forget(int32(c + 10))
			}
		}()
	}
	wg.Wait()
	cancel()
	<-done
	if reads[0] == 0 || reads[1] == 0 {
		t.Errorf("no values read while sampling: %v", reads)
	}
}

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
			mixed.sampleExtra(at(k).Add(ms(500)), scriptStep{count: [2]uint64{steady(k).count[0] + 1, steady(k).count[1]},
				ms: steady(k).ms + 1, gauge: 100})
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
