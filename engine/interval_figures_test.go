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

// A client that leaves is forgotten, and however many clients arrive the
// marks kept stay bounded.
func TestClientsForgottenAndBounded(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	for c := int32(0); c < 10000; c++ {
		g.fetch(c*7919, "hostcache.rate.test.count")
	}
	if n := g.r.figures.clients.count(); n != 8 {
		t.Errorf("%d clients remembered, want the bound 8", n)
	}
	g.fetch(5, "hostcache.rate.test.count")
	g.r.Forget(5)
	if _, ok := g.r.figures.clients.byID[5]; ok {
		t.Error("client 5 still remembered after Forget")
	}
	g.fetch(cache.NoClient, "hostcache.rate.test.count")
	if _, ok := g.r.figures.clients.byID[cache.NoClient]; ok {
		t.Error("NoClient remembered")
	}
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

// Past its memory budget the history is shortened: older samples are
// dropped and a client whose mark is older starts from the oldest kept.
func TestHistoryBudget(t *testing.T) {
	// A sample of the script source holds 4 values: 32 + 96 bytes.
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, HistoryBudget: 128 * 5})
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	g.fetch(1, "hostcache.rate.test.count")
	for k := 2; k <= 20; k++ {
		g.sample(at(k), steady(k))
	}
	h := g.r.entries[0].hist()
	if n := h.held(); n != 6 {
		t.Errorf("%d samples held, want 6 (5 s of budget + 1)", n)
	}
	if b := h.bytes.Load(); b > 128*6 {
		t.Errorf("history holds %d bytes, over its budget", b)
	}
	if h.at(14) != nil || h.at(15) == nil {
		t.Error("samples older than the kept span are still served")
	}
	g.want(1, "hostcache.rate.test.count", 0, float64(10*400-10*15*15)/5)
	if got := g.fetch(1, "hostcache.control.history")[cache.InstNone]; got != 5 {
		t.Errorf("control.history = %v, want the 5 s the budget allows", got)
	}
}

// A history shortened to fit the budget gets its whole span back when
// the costs fall (here the budget grows in its stead) and the next change
// of cost re-shares; within an ample budget nothing is re-shared at all.
func TestHistoryBudgetRestored(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, HistoryBudget: 128 * 5})
	for k := 0; k <= 20; k++ {
		g.sample(at(k), steady(k))
	}
	e := g.r.entries[0]
	if !g.r.budget.shortened || e.hist().keep.Load() >= int64(e.hist().depth()) {
		t.Fatalf("history not shortened past its budget (keep %d of %d)", e.hist().keep.Load(), e.hist().depth())
	}
	g.r.budget.bytes = 1 << 30
	g.r.budget.rebudget(g.r.entries, e, e.budget.cost*2)
	if g.r.budget.shortened || e.hist().keep.Load() != int64(e.hist().depth()) || g.r.budget.span.Load() != time.Minute.Milliseconds() {
		t.Errorf("history not restored within an ample budget: keep %d of %d, span %d ms",
			e.hist().keep.Load(), e.hist().depth(), g.r.budget.span.Load())
	}
	g.r.budget.span.Store(1) // a re-share would set it again
	for k := 21; k <= 40; k++ {
		// Repeats: the cost per sample held falls with each, as after start.
		g.sample(at(k), steady(21))
	}
	if g.r.budget.span.Load() != 1 {
		t.Error("the budget was shared again although every history fits")
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
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
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
	for c := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				q := cache.Request{Snap: front.Load(), Now: time.Now(), Client: int32(c)}
				for _, d := range names {
					reads[c] += len(q.AppendValues(nil, d))
				}
				r.Forget(int32(c + 10))
			}
		}()
	}
	wg.Wait()
	<-done
	if reads[0] == 0 || reads[1] == 0 {
		t.Errorf("no values read while sampling: %v", reads)
	}
}

// A counter that jumps by more than half its range in one step (a driver
// reporting 2^64-1) is a reset: that step gives no rate, never 7e19/s.
func TestImplausibleJumpIsAReset(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), scriptStep{count: [2]uint64{100, 100}, ms: 0})
	g.sample(at(1), scriptStep{count: [2]uint64{110, 105}, ms: 500})
	g.fetch(1, "hostcache.rate.test.count")
	g.fetch(1, "hostcache.test.util")
	g.sample(at(2), scriptStep{count: [2]uint64{math.MaxUint64 - 1, 110}, ms: math.MaxUint64})
	g.want(1, "hostcache.rate.test.count", 0, math.NaN())
	g.want(1, "hostcache.rate.test.count", 1, 5)
	g.want(1, "hostcache.test.util", cache.InstNone, math.NaN())
	g.sample(at(3), scriptStep{count: [2]uint64{120, 115}, ms: 1000})
	g.want(2, "hostcache.rate.test.count", 0, math.NaN()) // back down: a reset again
	g.sample(at(4), scriptStep{count: [2]uint64{130, 120}, ms: 1500})
	g.want(2, "hostcache.rate.test.count", 0, 10)
	g.want(2, "hostcache.test.util", cache.InstNone, 50)
	if n := g.r.entries[0].stats.resets.Load(); n != 4 {
		t.Errorf("resets = %d, want 4 (two jumps up, two down)", n)
	}
}

// The budget is shared max-min fairly: sources that need less than an
// equal share keep the whole history, and the widest gets what is left.
func TestFairSpans(t *testing.T) {
	const h = 900 * time.Second
	// Two narrow sources (1 KB/s, 2 KB/s: 0.9 and 1.8 MB for 900 s) and a
	// wide one (1 MB/s) within 10 MB: the narrow ones keep 900 s, the
	// wide one 10 - 2.7 = 7.3 MB, 7.3 s.
	spans := FairSpans([]float64{1e6, 1e3, 2e3}, 10e6, h)
	if spans[1] != h || spans[2] != h {
		t.Errorf("narrow sources keep %v and %v, want %v", spans[1], spans[2], h)
	}
	if got := spans[0].Seconds(); math.Abs(got-7.3) > 0.01 {
		t.Errorf("the wide source keeps %.2f s, want 7.3", got)
	}
	// Everything fits: every source keeps the whole history.
	for i, s := range FairSpans([]float64{10, 20}, 1e9, h) {
		if s != h {
			t.Errorf("source %d keeps %v within an ample budget", i, s)
		}
	}
	// Two equal wide sources share alike.
	if s := FairSpans([]float64{1e6, 1e6}, 10e6, h); s[0] != s[1] || s[0] != 5*time.Second {
		t.Errorf("equal sources keep %v", s)
	}
}
