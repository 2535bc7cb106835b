package engine

import (
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
	now := g.r.idle.started
	grid := now.Add(time.Second)

	g.r.idle.update(g.r.schema, e, now.Add(30*time.Second))
	if e.idle.slowed.Load() || g.r.idle.slowIfUnread(e, grid) != grid {
		t.Fatal("a source is slowed down before IdleAfter")
	}
	g.r.idle.update(g.r.schema, e, now.Add(61*time.Second))
	if !e.idle.slowed.Load() {
		t.Fatal("a source unread for IdleAfter is not marked idle")
	}
	if next := g.r.idle.slowIfUnread(e, grid); next.Before(grid) || next.Sub(grid) >= 10*time.Second ||
		next.Sub(aligned(next.Add(-time.Nanosecond), 10*time.Second)) != 0 {
		t.Errorf("an idle source samples next at %s (next tick %s), want the first point of the 10 s grid from it",
			next.Format("15:04:05.000"), grid.Format("15:04:05.000"))
	}
	if got := g.r.idle.effectiveInterval(e); got != 10*time.Second {
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
	g.r.idle.update(g.r.schema, e, now.Add(63*time.Second))
	if e.idle.slowed.Load() {
		t.Error("a source read again stays idle")
	}
}

// An idle source's part is published with a staleness limit in its slow
// intervals: between two slow samples its values are served.
func TestIdleSourceIsNotStale(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, StaleIntervals: 5,
		IdleAfter: time.Minute, IdleFactor: 10})
	e := g.r.entries[0]
	g.r.idle.started = time.Now().Add(-2 * time.Minute) // unread since
	g.sample(at(0), steady(0))
	if !e.idle.slowed.Load() {
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
// new pace, once per change: the idle factor as the sample that finds it
// unread starts, 1 when it is read again, the factor once it is not.
func TestPacedCollectorToldItsSlowDown(t *testing.T) {
	p := &pacedScript{scripted: scripted{name: "paced"}}
	r, _ := newTestRunner(t, p, time.Second)
	r.setPacing(Schedule{IdleAfter: time.Minute, IdleFactor: 10})
	unread := time.Now().Add(-2 * time.Minute)
	r.idle.started = unread // unread since
	sample := func() {
		t.Helper()
		if err := r.SampleAt(time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	sample() // found unread before it samples
	sample()
	sample()
	r.idle.started = time.Now() // as good as a read now
	sample()
	r.idle.started = unread
	sample()
	if want := []int{10, 1, 10}; !slices.Equal(p.paces, want) {
		t.Errorf("paces %v, want %v", p.paces, want)
	}
	if want := []int64{0, 3, 4}; !slices.Equal(p.at, want) {
		t.Errorf("paces given after samples %v, want %v", p.at, want)
	}
}

// A source whose sample fails and that nobody reads slows down as well:
// a host without the files (no NUMA nodes in sysfs) is not retried at
// full rate for good.
func TestFailingUnreadSourceSlowsDown(t *testing.T) {
	s := &scripted{name: "failing"}
	s.fail.Store(true)
	r, _ := newTestRunner(t, s, time.Second)
	r.setPacing(Schedule{IdleAfter: time.Minute, IdleFactor: 10})
	r.idle.started = time.Now().Add(-2 * time.Minute)
	if err := r.SampleAt(time.Now()); err == nil {
		t.Fatal("the failing source's sample did not fail")
	}
	if !r.entries[0].idle.slowed.Load() {
		t.Error("an unread source whose sample fails keeps its full rate")
	}
}

// Unread sources of different intervals, slowed down at different
// moments, sample on the grid of their slow intervals: each 5 s source's
// instant (every 50 s) is one of the 1 s sources' (every 10 s), so an
// unread agent wakes once a slow tick, not once per source's phase.
func TestUnreadSourcesShareTheSlowGrid(t *testing.T) {
	g := newRigWith(t, Schedule{Default: time.Second, History: time.Minute, IdleAfter: time.Minute, IdleFactor: 10})
	e := g.r.entries[0]
	e.setIdle(g.r.schema, true)
	base := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	fast, slow := map[time.Time]bool{}, map[time.Time]bool{}
	for k := range 120 { // ticks of a 1 s source going unread at any of them
		fast[g.r.idle.slowIfUnread(e, base.Add(time.Duration(k)*time.Second+500*time.Millisecond))] = true
	}
	e.sched.intervalMS.Store(5000)
	for k := range 24 { // and of a 5 s source
		slow[g.r.idle.slowIfUnread(e, base.Add(time.Duration(k)*5*time.Second+500*time.Millisecond))] = true
	}
	for at := range fast {
		if at.Sub(base)%(10*time.Second) != 500*time.Millisecond {
			t.Errorf("a 1 s source slowed down samples at +%v, off the 10 s grid", at.Sub(base))
		}
	}
	for at := range slow {
		if at.Sub(base)%(50*time.Second) != 500*time.Millisecond {
			t.Errorf("a 5 s source slowed down samples at +%v, off the 50 s grid", at.Sub(base))
		}
	}
	if len(fast) != 13 || len(slow) != 4 {
		t.Errorf("%d and %d distinct instants, want 13 and 4", len(fast), len(slow))
	}
}

// onDemandScript is a Paced collector that samples only for readers.
type onDemandScript struct{ pacedScript }

func (*onDemandScript) OnDemand() bool { return true }

// An OnDemand collector no client has read is slowed down from its first
// sample, not after idle_after; a fetch that asks for it (Front.Freshen)
// counts as a read before its fresh sample, which is then at full pace.
func TestOnDemandCollectorWaitsForItsReaders(t *testing.T) {
	p := &onDemandScript{pacedScript{scripted: scripted{name: "ondemand"}}}
	r, front := newTestRunner(t, p, time.Second)
	r.setPacing(Schedule{IdleAfter: time.Minute, IdleFactor: 10})
	if err := r.SampleAt(time.Now()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.paces, []int{10}) {
		t.Fatalf("an unread OnDemand collector's paces %v before its first sample, want [10]", p.paces)
	}
	front.Freshen([]int{r.entries[0].source}, time.Now())
	if err := r.SampleAt(time.Now()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.paces, []int{10, 1}) || p.at[1] != 1 {
		t.Errorf("after a fetch asked for it, paces %v given before samples %v; want [10 1] before the second",
			p.paces, p.at)
	}
}
