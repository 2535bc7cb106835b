package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

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
	r.Reconfigure(Schedule{Default: 2 * time.Second, Intervals: map[string]time.Duration{"a": 4 * time.Second},
		StaleIntervals: 3})
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
