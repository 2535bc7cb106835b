package engine

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

var scriptedValue = Metric("hostcache.test.value", 4000, 0, cache.TypeU64, cache.SemInstant, cache.UnitsNone, cache.InDomNone)

// scripted is a collector whose behaviour each test sets: it fails, panics
// or blocks on demand, to exercise the runner's bookkeeping.
type scripted struct {
	name   string
	calls  atomic.Int64
	fail   atomic.Bool
	panics atomic.Bool
	block  chan struct{} // when non-nil, Sample waits on it
}

func (s *scripted) Name() string { return s.name }
func (s *scripted) Source() cache.Source {
	return cache.Source{Name: s.name, Metrics: []cache.Desc{scriptedValue}}
}
func (s *scripted) Sample(b *cache.Builder, now time.Time) error {
	n := s.calls.Add(1)
	if s.block != nil {
		<-s.block
	}
	if s.panics.Load() {
		panic("scripted panic")
	}
	if s.fail.Load() {
		return errors.New("scripted failure")
	}
	b.SetU64(scriptedValue.ID, cache.InstNone, uint64(n))
	return nil
}

func newTestRunner(t *testing.T, c Collector, interval time.Duration) (*Runner, *cache.Front) {
	t.Helper()
	return attachedRunner(t, zerolog.Nop(), interval, c)
}

// attachedRunner is a runner of cs at interval, logging to log, attached
// to a front of its schema.
func attachedRunner(t *testing.T, log zerolog.Logger, interval time.Duration, cs ...Collector) (*Runner, *cache.Front) {
	t.Helper()
	return attachedWith(t, log, Schedule{Default: interval}, cs...)
}

// attachedWith is a runner of cs on sched, attached to a front of its
// schema.
func attachedWith(t *testing.T, log zerolog.Logger, sched Schedule, cs ...Collector) (*Runner, *cache.Front) {
	t.Helper()
	r := NewRunner(log, cs, sched)
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	st := cache.NewFront(schema)
	if err := r.Attach(st); err != nil {
		t.Fatal(err)
	}
	return r, st
}

func controlValue(t *testing.T, st *cache.Front, d cache.Desc) uint64 {
	t.Helper()
	snap := st.Load()
	desc, _ := snap.Schema.Desc(d.ID)
	v := snap.AppendValues(nil, desc, time.Now())
	if len(v) == 0 {
		t.Fatalf("%s has no value", d.Name)
	}
	return v[0].Bits
}

func TestRunnerCountsSamplesErrorsAndPanics(t *testing.T) {
	c := &scripted{name: "s"}
	r, st := newTestRunner(t, c, time.Second)
	r.SampleAll()
	c.fail.Store(true)
	r.SampleAll()
	c.fail.Store(false)
	c.panics.Store(true)
	r.SampleAll() // recovered: the agent keeps serving
	if s, e, p := controlValue(t, st, ctlSamples), controlValue(t, st, ctlErrors), controlValue(t, st, ctlPanics); s != 3 || e != 2 || p != 1 {
		t.Errorf("samples %d errors %d panics %d, want 3 2 1", s, e, p)
	}
	// The failed samples published nothing: the first sample's value stays.
	desc, _ := st.Schema().Desc(scriptedValue.ID)
	if v := st.Load().Values(desc); len(v) != 1 || v[0].Bits != 1 {
		t.Errorf("published value %v, want the first sample's 1", v)
	}
	if age := controlValue(t, st, ctlAge); age > 60_000 {
		t.Errorf("age %d ms", age)
	}
}

func storeReq(id cache.MetricID, inst uint32, ms int32) []cache.PMStoreRequest {
	return []cache.PMStoreRequest{{ID: id, Inst: inst, Value: cache.I32Value(inst, ms)}}
}

func TestRunnerStore(t *testing.T) {
	r, st := newTestRunner(t, &scripted{name: "s"}, time.Second)
	cases := []struct {
		reqs []cache.PMStoreRequest
		want error
	}{
		{storeReq(ctlInterval.ID, cache.InstNone, -5), cache.ErrNegative},
		{storeReq(ctlInterval.ID, cache.InstNone, 99), cache.ErrOutOfRange},
		{storeReq(ctlInterval.ID, cache.InstNone, MaxIntervalMS+1), cache.ErrOutOfRange},
		{storeReq(ctlCInterval.ID, 7, 500), cache.ErrNoInstance},
		{storeReq(ctlSamples.ID, 0, 500), cache.ErrReadOnly},
		{storeReq(cache.NewMetricID(99, 1), 0, 500), cache.ErrUnknownMetric},
		// One bad value refuses the whole store, the good one included.
		{append(storeReq(ctlCInterval.ID, 0, 300), storeReq(ctlInterval.ID, cache.InstNone, -1)...), cache.ErrNegative},
	}
	for i, c := range cases {
		if err := r.PMStore(c.reqs); !errors.Is(err, c.want) {
			t.Errorf("case %d: %v, want %v", i, err, c.want)
		}
	}
	if iv := controlValue(t, st, ctlCInterval); int64(iv) != 1000 {
		t.Fatalf("refused stores changed the interval to %d", iv)
	}
	if err := r.PMStore(storeReq(ctlInterval.ID, cache.InstNone, 250)); err != nil {
		t.Fatal(err)
	}
	if g, c := controlValue(t, st, ctlInterval), controlValue(t, st, ctlCInterval); g != 250 || c != 250 {
		t.Errorf("after storing 250: default %d collector %d", g, c)
	}
}

// TestRunnerSkipsOverrunTicks: a sample that outlasts its interval does not
// queue ticks; the missed ones are counted, and the loop stops with ctx.
func TestRunnerSkipsOverrunTicks(t *testing.T) {
	c := &scripted{name: "s", block: make(chan struct{})}
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	for c.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(450 * time.Millisecond) // about four ticks pass while blocked
	close(c.block)
	for controlValue(t, st, ctlSamples) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if skipped := controlValue(t, st, ctlSkipped); skipped < 2 {
		t.Errorf("skipped %d ticks, want at least 2", skipped)
	}
}

func TestRunnerReadyAfterFirstSamples(t *testing.T) {
	c := &scripted{name: "s", block: make(chan struct{})}
	r, _ := newTestRunner(t, c, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	select {
	case <-r.Ready():
		t.Fatal("ready before the first sample finished")
	case <-time.After(50 * time.Millisecond):
	}
	close(c.block)
	select {
	case <-r.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("not ready after the first sample")
	}
}

// TestRunnerBacksOffAfterPanics: a collector that panics every time is
// restarted with exponential backoff rather than every tick.
func TestRunnerBacksOffAfterPanics(t *testing.T) {
	c := &scripted{name: "s"}
	c.panics.Store(true)
	r, st := newTestRunner(t, c, 100*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	time.Sleep(time.Second) // ten ticks; with backoff 100<<1, <<2, <<3: four tries at most
	cancel()
	<-done
	calls := c.calls.Load()
	if calls < 2 || calls > 5 {
		t.Errorf("%d tries in 1 s at a 100 ms interval, want 2..5 with backoff", calls)
	}
	if p := controlValue(t, st, ctlPanics); p != uint64(calls) {
		t.Errorf("panics %d, tries %d", p, calls)
	}
}

// A collector's own interval survives a store of the default; 0 restores
// what the agent started with.
func TestIntervalDefaultAndOwn(t *testing.T) {
	r := NewRunner(zerolog.Nop(), []Collector{&scripted{name: "a"}, &scriptSource{}}, Schedule{Default: time.Second,
		Intervals: map[string]time.Duration{"script": 5 * time.Second}})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Attach(cache.NewFront(schema)); err != nil {
		t.Fatal(err)
	}
	intervals := func() [2]int64 {
		return [2]int64{r.entries[0].sched.intervalMS.Load(), r.entries[1].sched.intervalMS.Load()}
	}
	steps := []struct {
		id   cache.MetricID
		inst uint32
		ms   int32
		want [2]int64
	}{
		{ctlInterval.ID, cache.InstNone, 500, [2]int64{500, 5000}}, // b keeps its own
		{ctlCInterval.ID, 0, 2000, [2]int64{2000, 5000}},           // a gets its own
		{ctlInterval.ID, cache.InstNone, 250, [2]int64{2000, 5000}},
		{ctlCInterval.ID, 0, 0, [2]int64{250, 5000}}, // a follows the default again
		{ctlCInterval.ID, 1, 300, [2]int64{250, 300}},
		{ctlInterval.ID, cache.InstNone, 0, [2]int64{1000, 5000}}, // everything as started
	}
	for i, s := range steps {
		if err := r.PMStore(storeReq(s.id, s.inst, s.ms)); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := intervals(); got != s.want {
			t.Errorf("step %d: intervals %v, want %v", i, got, s.want)
		}
	}
}

// A reconfiguration replaces the intervals, stored ones too, as a restart
// would; a later store of 0 comes back to the reconfigured settings.
func TestReconfigure(t *testing.T) {
	r := NewRunner(zerolog.Nop(), []Collector{&scripted{name: "a"}, &scriptSource{}}, Schedule{Default: time.Second,
		Intervals: map[string]time.Duration{"script": 5 * time.Second}, StaleIntervals: 5})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Attach(cache.NewFront(schema)); err != nil {
		t.Fatal(err)
	}
	intervals := func() [2]int64 {
		return [2]int64{r.entries[0].sched.intervalMS.Load(), r.entries[1].sched.intervalMS.Load()}
	}
	if err := r.PMStore(storeReq(ctlCInterval.ID, 0, 300)); err != nil {
		t.Fatal(err)
	}
	r.Reconfigure(Schedule{Default: 2 * time.Second, Intervals: map[string]time.Duration{"a": 4 * time.Second}, StaleIntervals: 3})
	if got, want := intervals(), [2]int64{4000, 2000}; got != want {
		t.Errorf("after reconfiguring: intervals %v, want %v", got, want)
	}
	if got := r.intervals.staleIntervals.Load(); got != 3 {
		t.Errorf("stale intervals %d, want 3", got)
	}
	for _, s := range []struct {
		id   cache.MetricID
		inst uint32
		ms   int32
	}{{ctlInterval.ID, cache.InstNone, 700}, {ctlCInterval.ID, 0, 900}, {ctlInterval.ID, cache.InstNone, 0}} {
		if err := r.PMStore(storeReq(s.id, s.inst, s.ms)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := intervals(), [2]int64{4000, 2000}; got != want {
		t.Errorf("after a store of 0: intervals %v, want the reconfigured %v", got, want)
	}
}

// The grid is half a second past each whole second, away from where
// wall-clock clients fetch; a 5 s or 10 s collector's points are 1 s ones.
func TestGridAwayFromWholeSeconds(t *testing.T) {
	base := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		t    time.Time
		iv   time.Duration
		want time.Time
	}{
		{base.Add(200 * time.Microsecond), time.Second, base.Add(500 * time.Millisecond)},
		{base.Add(500 * time.Millisecond), time.Second, base.Add(1500 * time.Millisecond)},
		{base.Add(200 * time.Microsecond), 10 * time.Second, base.Add(500 * time.Millisecond)},
		{base.Add(time.Second), 5 * time.Second, base.Add(5500 * time.Millisecond)},
		{base.Add(time.Millisecond), 500 * time.Millisecond, base.Add(250 * time.Millisecond)},
	}
	for _, c := range cases {
		if got := aligned(c.t, c.iv); !got.Equal(c.want) {
			t.Errorf("aligned(%s, %v) = %s, want %s", c.t.Format("15:04:05.000000"), c.iv,
				got.Format("15:04:05.000000"), c.want.Format("15:04:05.000000"))
		}
	}
}

// partialSource publishes one value and reports that another source failed.
type partialSource struct{ scripted }

func (p *partialSource) Sample(b *cache.Builder, _ time.Time) error {
	b.SetU64(scriptedValue.ID, cache.InstNone, 42)
	return Partial(errors.New("one file missing"))
}

// A partial failure publishes what the collector set and still counts.
func TestPartialSampleIsPublishedAndCounted(t *testing.T) {
	r, st := newTestRunner(t, &partialSource{scripted{name: "p"}}, time.Second)
	if err := r.SampleAt(time.Now()); err == nil {
		t.Error("the partial failure was not reported")
	}
	d, _ := st.Schema().Desc(scriptedValue.ID)
	if v := st.Load().AppendValues(nil, d, time.Now()); len(v) != 1 || v[0].Bits != 42 {
		t.Errorf("published %v, want 42", v)
	}
	r.SampleAll()
	if n := controlValue(t, st, ctlErrors); n != 1 {
		t.Errorf("errors = %d after one partial sample by the loop, want 1", n)
	}
}
