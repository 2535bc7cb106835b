package engine

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// A source no client reads for IdleAfter samples IdleFactor times less
// often, and its data stays servable between those samples; a client's
// read marks it busy again and wakes its sampler.
func TestUnreadSourceSlowsDown(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, StaleIntervals: 5,
		IdleAfter: time.Minute, IdleFactor: 10})
	e := g.r.entries[0]
	now := g.r.started
	grid := now.Add(time.Second)

	g.r.updateIdle(e, now.Add(30*time.Second))
	if e.idle.Load() || g.r.slowIfUnread(e, grid) != grid {
		t.Fatal("a source is slowed down before IdleAfter")
	}
	g.r.updateIdle(e, now.Add(61*time.Second))
	if !e.idle.Load() {
		t.Fatal("a source unread for IdleAfter is not marked idle")
	}
	if next := g.r.slowIfUnread(e, grid); next != grid.Add(9*time.Second) {
		t.Errorf("an idle source samples next at +%v, want 10 intervals after the last", next.Sub(now))
	}
	if got := g.r.effectiveInterval(e); got != 10*time.Second {
		t.Errorf("effective interval %v", got)
	}
	if got := g.fetch(1, "hostcache.control.collector.idle")[0]; got != 1 {
		t.Errorf("control.collector.idle = %v, want 1", got)
	}

	// A client reads one of its metrics: the sampler is woken, and the
	// next decision finds the source read.
	g.now = now.Add(62 * time.Second)
	g.fetch(1, "hostcache.test.gauge")
	select {
	case <-g.front.Schema().ReadWake(e.source):
	default:
		t.Error("a read of an idle source did not wake its sampler")
	}
	g.r.updateIdle(e, now.Add(63*time.Second))
	if e.idle.Load() {
		t.Error("a source read again stays idle")
	}
}

// An idle source's part is published with a staleness limit in its slow
// intervals: between two slow samples its values are served.
func TestIdleSourceIsNotStale(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, StaleIntervals: 5,
		IdleAfter: time.Minute, IdleFactor: 10})
	e := g.r.entries[0]
	g.r.started = time.Now().Add(-2 * time.Minute) // unread since
	g.sample(at(0), steady(0))
	if !e.idle.Load() {
		t.Fatal("the source was not found unread as it published")
	}
	p := g.front.Load().Part(e.source)
	if p.StaleAfter != 50*time.Second {
		t.Errorf("StaleAfter %v, want 5 slow intervals (50 s)", p.StaleAfter)
	}
	if p.Stale(at(0).Add(20 * time.Second)) {
		t.Error("an idle source's part is stale before its next slow sample")
	}
}

// PartialOf: nothing failed is nil, some is a PartialError (what was read
// is published), all is a plain error.
func TestPartialOf(t *testing.T) {
	bad := errors.New("gone")
	if err := PartialOf(nil, 3); err != nil {
		t.Errorf("no failure: %v", err)
	}
	var p *PartialError
	if err := PartialOf([]error{bad}, 3); !errors.As(err, &p) {
		t.Errorf("one of three: %v is not partial", err)
	}
	if err := PartialOf([]error{bad, bad}, 2); err == nil || errors.As(err, &p) {
		t.Errorf("all failed: %v", err)
	}
}

// pacedScript records the paces its runner gives it, and the sample each
// came before.
type pacedScript struct {
	scripted
	paces []int
	at    []int64
}

func (p *pacedScript) Pace(factor int) {
	p.paces = append(p.paces, factor)
	p.at = append(p.at, p.calls.Load())
}

// A Paced collector is told its slow-down before the first sample at the
// new pace, once per change: 1 at its interval, the idle factor once no
// client reads it, 1 again when a read wakes it.
func TestPacedCollectorToldItsSlowDown(t *testing.T) {
	p := &pacedScript{scripted: scripted{name: "paced"}}
	r, _ := newTestRunner(t, p, time.Second)
	r.setIdle(Schedule{IdleAfter: time.Minute, IdleFactor: 10})
	r.started = time.Now().Add(-2 * time.Minute) // unread since
	e := r.entries[0]
	sample := func() {
		t.Helper()
		if err := r.SampleAt(time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	sample() // found unread as it publishes
	sample()
	sample()
	r.setEntryIdle(e, false) // as the loop does when a read wakes it
	sample()                 // and, still unread since, slowed again
	sample()
	if want := []int{1, 10, 1, 10}; !slices.Equal(p.paces, want) {
		t.Errorf("paces %v, want %v", p.paces, want)
	}
	if want := []int64{0, 1, 3, 4}; !slices.Equal(p.at, want) {
		t.Errorf("paces given after samples %v, want %v", p.at, want)
	}
}
