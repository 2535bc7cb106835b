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
	// entered, when non-nil, is told (without waiting) that Sample began.
	entered chan struct{}
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Source() cache.Source {
	return cache.Source{Name: s.name, Metrics: []cache.Desc{scriptedValue}}
}

func (s *scripted) Sample(b *cache.Builder, now time.Time) error {
	n := s.calls.Add(1)
	if s.entered != nil {
		select {
		case s.entered <- struct{}{}:
		default:
		}
	}
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

func TestRunnerReadyAfterFirstSamples(t *testing.T) {
	c := &scripted{name: "s", block: make(chan struct{}), entered: make(chan struct{}, 1)}
	r, _ := newTestRunner(t, c, time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	<-c.entered // the first sample has begun, and is blocked
	select {
	case <-r.Ready():
		t.Fatal("ready before the first sample finished")
	default:
	}
	close(c.block)
	select {
	case <-r.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("not ready after the first sample")
	}
}
