package engine

import (
	"testing"
	"time"
)

// readersAt is a set of readers fetching every period at each phase past
// t0's second, in that order, steadily: six fetches each, the last
// before now.
func readersAt(period time.Duration, phases ...time.Duration) (*readerSet, time.Time) {
	var rs readerSet
	var last time.Time
	for c, ph := range phases {
		last = fetchEvery(&rs, int32(c+1), t0.Add(ph), period, 6, noJitter)
	}
	return &rs, last
}

func planOf(rs *readerSet, bound int, now time.Time) samplingPlan {
	var p samplingPlan
	rs.plan(planInput{interval: time.Second, bound: bound, now: now}, &p)
	return p
}

// One reader: the grid's phase is its fetch's, a margin (5 ms on a quiet
// host) earlier, and it needs no extra sample.
func TestGridPhaseFollowsThePrimaryReader(t *testing.T) {
	rs, last := readersAt(time.Second, ms(250))
	p := planOf(rs, 4, last.Add(ms(100)))
	if !p.follows || p.phase != ms(245) || len(p.extras) != 0 {
		t.Errorf("phase %v (follows %v), extras %v; want the grid at +245ms and no extra", p.phase, p.follows, p.extras)
	}
	if rs.find(1).role != rolePrimary {
		t.Error("the reader is not the primary")
	}
	// A jittery reader and a slow sample widen the margin, in steps of
	// 5 ms: 2*4+3+2 = 13 ms makes 15.
	var wide samplingPlan
	rs.find(1).jitter = ms(4)
	rs.plan(planInput{interval: time.Second, delay: ms(3), bound: 4, now: last}, &wide)
	if wide.phase != ms(250-15) {
		t.Errorf("phase %v with 4 ms jitter and a 3 ms sample, want +235ms", wide.phase)
	}
}

// Readers at other phases get an extra sample before their next fetch,
// up to reader_phases phases in all (the grid's included); those past the
// bound are served by the grid.
func TestExtrasForOtherReadersUpToTheBound(t *testing.T) {
	rs, last := readersAt(time.Second, ms(100), ms(400), ms(700), ms(900))
	for c, d := range []time.Duration{2, 0, 0, -3} { // equal periods measure a little apart
		rs.find(int32(c + 1)).period += d * time.Microsecond
	}
	now := last.Add(ms(50)) // just after the last round, at +950 ms
	p := planOf(rs, 3, now)
	if p.phase.Round(ms(1)) != ms(95) {
		t.Errorf("grid phase %v, want +95ms: the first seen of equal periods leads", p.phase)
	}
	want := []time.Time{now.Add(ms(445)), now.Add(ms(745))} // before the fetches at +400 and +700
	if len(p.extras) != len(want) || !p.extras[0].Equal(want[0]) || !p.extras[1].Equal(want[1]) {
		t.Fatalf("extras %v, want %v", p.extras, want)
	}
	if rs.find(4).role != roleGrid {
		t.Error("the reader past the bound is not served by the grid")
	}
	if all := planOf(rs, 4, now); len(all.extras) != 3 || rs.find(4).role != roleExtra {
		t.Errorf("bound 4: extras %v, want 3", all.extras)
	}
	if one := planOf(rs, 1, now); !one.follows || len(one.extras) != 0 {
		t.Errorf("bound 1: extras %v, want the grid only", one.extras)
	}
}

// A reader whose fetch a grid sample already precedes by no more than the
// tolerance needs no extra; one whose phase another extra serves shares it.
func TestServedReadersNeedNoExtra(t *testing.T) {
	rs, last := readersAt(time.Second, ms(100), ms(110), ms(500), ms(512))
	p := planOf(rs, 4, last.Add(ms(50)))
	if len(p.extras) != 1 || phaseOf(p.extras[0], time.Second) != ms(495) {
		t.Errorf("extras %v, want one at +495ms", p.extras)
	}
}

// A 10 s logger and a 1 s reader: the 1 s reader's phase is the grid's,
// the logger gets an extra before its next fetch; a reader fetching more
// often than the source samples is served by the grid.
func TestSlowReaderExtraAndFastReaderGrid(t *testing.T) {
	var rs readerSet
	fetchEvery(&rs, 1, t0.Add(ms(7420)), 10*time.Second, 6, noJitter)
	fetchEvery(&rs, 2, t0.Add(ms(300)), time.Second, 60, noJitter)
	fetchEvery(&rs, 3, t0.Add(ms(600)), ms(500), 120, noJitter)
	now := t0.Add(ms(59500))
	p := planOf(&rs, 4, now)
	if p.phase != ms(295) || rs.find(2).role != rolePrimary {
		t.Errorf("grid phase %v, want +295ms from the 1 s reader", p.phase)
	}
	if len(p.extras) != 1 || !p.extras[0].Equal(t0.Add(ms(67415))) {
		t.Errorf("extras %v, want one at t0+67.415s", p.extras)
	}
	if rs.find(3).role != roleGrid {
		t.Error("a reader at 500 ms against a 1 s interval is not served by the grid")
	}
}

// A reader whose period is no whole number of intervals does not lead
// the grid (its phase of the interval moves), and gets extras.
func TestIncommensurateReaderGetsExtras(t *testing.T) {
	rs, last := readersAt(ms(1500), ms(200))
	p := planOf(rs, 4, last)
	if p.follows || p.phase != gridPhase(time.Second) || len(p.extras) != 1 || !p.extras[0].Equal(last.Add(ms(1495))) {
		t.Errorf("follows %v at %v, extras %v; want the fixed grid and an extra 5 ms before the next fetch", p.follows, p.phase, p.extras)
	}
}

// reader_phases 0 is today's grid: half a second past the second, no
// extra, whoever reads.
func TestNoReaderPhasesIsTheFixedGrid(t *testing.T) {
	rs, last := readersAt(time.Second, ms(100), ms(400))
	p := planOf(rs, 0, last)
	if p.follows || p.phase != ms(500) || len(p.extras) != 0 {
		t.Errorf("phase %v (follows %v), extras %v; want +500ms, none", p.phase, p.follows, p.extras)
	}
	if rs.find(1).role != roleGrid || rs.find(2).role != roleGrid {
		t.Error("readers not served by the grid")
	}
}

// A change of the grid's phase moves its next sample to the first point
// of the new grid at least half an interval after the last: never a
// sliver step.
func TestPhaseChangeMakesNoSliver(t *testing.T) {
	iv := time.Second
	last := t0.Add(ms(500))
	for _, phase := range []time.Duration{ms(0), ms(495), ms(505), ms(600), ms(999)} {
		cd := cadence{next: last.Add(iv), last: last}
		cd.plan.phase = phase
		cd.regridIfMoved(ms(500), iv, last.Add(ms(10)))
		step := cd.next.Sub(last)
		if step < iv/2 || step >= iv*3/2 || phaseOf(cd.next, iv) != phase {
			t.Errorf("phase %v: next grid sample %v after the last, at +%v", phase, step, phaseOf(cd.next, iv))
		}
	}
	// During a backoff, the backoff stands.
	cd := cadence{next: last.Add(time.Minute), last: last, backoff: true}
	cd.plan.phase = ms(100)
	cd.regridIfMoved(ms(500), iv, last)
	if !cd.next.Equal(last.Add(time.Minute)) {
		t.Errorf("a phase change moved a backoff to %v", cd.next.Sub(last))
	}
}

// When the grid moves to a new primary reader's phase, its first point
// comes half an interval after the last grid sample at the earliest: the
// reader's next fetch, before it, gets an extra sample. Once the grid is
// on the phase, none is needed.
func TestMovedGridBridgesThePrimary(t *testing.T) {
	rs, last := readersAt(time.Second, ms(0))
	now := last.Add(ms(500)) // a grid sample on the fixed grid, just taken
	cd := cadence{next: now.Add(time.Second), last: now}
	cd.plan.phase = gridPhase(time.Second)
	rs.plan(planInput{interval: time.Second, bound: 8, now: now}, &cd.plan)
	cd.regridIfMoved(gridPhase(time.Second), time.Second, now)
	cd.bridge(servedTolerance)
	fetch := last.Add(time.Second)
	if !cd.next.Equal(fetch.Add(time.Second - ms(5))) {
		t.Errorf("the grid moved to %v after the fetch, want 995ms", cd.next.Sub(fetch))
	}
	if len(cd.plan.extras) != 1 || !cd.plan.extras[0].Equal(fetch.Add(-ms(5))) || !cd.due().Equal(fetch.Add(-ms(5))) {
		t.Errorf("extras %v, due %v; want one 5 ms before the fetch at %v", cd.plan.extras, cd.due(), fetch)
	}
	// A second later the grid is on the phase: no bridge.
	settled := fetch.Add(ms(400))
	cd = cadence{next: fetch.Add(time.Second - ms(5)), last: fetch.Add(-ms(5))}
	rs.plan(planInput{interval: time.Second, bound: 8, now: settled}, &cd.plan)
	cd.bridge(servedTolerance)
	if len(cd.plan.extras) != 0 {
		t.Errorf("extras %v on a settled grid", cd.plan.extras)
	}
}

// planOn re-plans p from rs as the loop does: the plan keeps what the
// last one held.
func planOn(rs *readerSet, p *samplingPlan, now time.Time) {
	rs.plan(planInput{interval: time.Second, bound: 8, now: now}, p)
}

// A primary reader stalled under load (one fetch 300 ms late, then back
// on its beat) is aperiodic for a few fetches; the grid keeps its phase
// meanwhile, and does not move to the other reader's.
func TestStalledPrimaryKeepsTheGrid(t *testing.T) {
	var rs readerSet
	last := fetchEvery(&rs, 1, t0.Add(ms(250)), time.Second, 6, noJitter)
	fetchEvery(&rs, 2, t0.Add(ms(700)), time.Second, 6, noJitter)
	var p samplingPlan
	planOn(&rs, &p, last.Add(ms(100)))
	if p.phase != ms(245) {
		t.Fatalf("grid phase %v, want +245ms", p.phase)
	}
	late := last.Add(ms(1300))
	rs.arrive(1, late, ms(300), true)
	rs.arrive(1, late.Add(ms(700)), ms(3), true) // back on the beat
	if rs.find(1).periodic {
		t.Fatal("the stalled reader is still periodic; the test needs it aperiodic")
	}
	planOn(&rs, &p, late.Add(ms(750)))
	if p.phase != ms(245) || !p.follows || rs.find(1).role != rolePrimary {
		t.Errorf("after a stall: grid phase %v (follows %v), reader 1 %s; want +245ms, still the primary",
			p.phase, p.follows, rs.find(1).role.words())
	}
	if rs.find(2).role != roleExtra {
		t.Errorf("reader 2 %s, want extra samples", rs.find(2).role.words())
	}
}

// A primary that stays aperiodic, or goes away, releases the grid: the
// next periodic reader leads it, or, with none, the grid goes back to
// half a second past the second.
func TestPrimaryReleasesTheGrid(t *testing.T) {
	var rs readerSet
	last := fetchEvery(&rs, 1, t0.Add(ms(250)), time.Second, 6, noJitter)
	var p samplingPlan
	planOn(&rs, &p, last)
	for k, gap := range []int{1300, 700, 1400, 600, 1350, 650} { // erratic
		last = last.Add(ms(gap))
		rs.arrive(1, last, ms(3), true)
		planOn(&rs, &p, last)
		if k == 0 && p.phase != ms(245) {
			t.Errorf("after the first odd gap the grid moved to %v", p.phase)
		}
	}
	if p.follows || p.phase != gridPhase(time.Second) {
		t.Errorf("an erratic reader still leads the grid, at %v", p.phase)
	}
	// A steady reader leads, and keeps the lead when it goes silent only
	// until it is no longer tracked.
	var rs2 readerSet
	last = fetchEvery(&rs2, 7, t0.Add(ms(600)), time.Second, 6, noJitter)
	planOn(&rs2, &p, last)
	if p.phase != ms(595) {
		t.Fatalf("grid phase %v, want +595ms", p.phase)
	}
	rs2.expire(last.Add(4 * time.Second))
	planOn(&rs2, &p, last.Add(4*time.Second))
	if p.follows || p.phase != gridPhase(time.Second) {
		t.Errorf("a reader gone away still leads the grid, at %v", p.phase)
	}
}

// The lead stays with its reader when another of the same period becomes
// periodic, seen first or not; a reader of a shorter period takes it.
func TestLeadChangesOnlyForAShorterPeriod(t *testing.T) {
	var rs readerSet
	rs.arrive(1, t0.Add(ms(100)), ms(3), true) // seen first, aperiodic yet
	last := fetchEvery(&rs, 2, t0.Add(ms(400)), time.Second, 6, noJitter)
	var p samplingPlan
	planOn(&rs, &p, last)
	if p.phase != ms(395) {
		t.Fatalf("grid phase %v, want +395ms from reader 2", p.phase)
	}
	fetchEvery(&rs, 1, t0.Add(ms(1100)), time.Second, 6, noJitter)
	planOn(&rs, &p, last.Add(ms(800)))
	if p.phase != ms(395) || rs.find(2).role != rolePrimary {
		t.Errorf("grid phase %v, want +395ms: reader 2 keeps the lead", p.phase)
	}
	var slow readerSet
	last = fetchEvery(&slow, 1, t0.Add(ms(300)), 10*time.Second, 4, noJitter)
	planOn(&slow, &p, last)
	if p.phase != ms(295) {
		t.Fatalf("grid phase %v, want +295ms from the 10 s reader", p.phase)
	}
	fast := fetchEvery(&slow, 2, last.Add(ms(400)), time.Second, 6, noJitter)
	planOn(&slow, &p, fast)
	if p.phase != ms(695) || slow.find(2).role != rolePrimary {
		t.Errorf("grid phase %v, want +695ms from the 1 s reader", p.phase)
	}
}

// A phase that moves late in a step, past the new grid's nearest point,
// takes the grid sample at once: the step is never nearly two intervals.
func TestLatePhaseChangeSamplesAtOnce(t *testing.T) {
	iv := time.Second
	last := t0.Add(ms(40))
	cd := cadence{next: last.Add(iv), last: last}
	cd.plan.phase = ms(30)
	now := last.Add(ms(995)) // an extra sample's tick, at +35 ms
	cd.regridIfMoved(ms(40), iv, now)
	if !cd.next.Equal(last.Add(ms(990))) || !cd.atOnce {
		t.Errorf("next grid sample %v after the last (at once %v), want 990ms, at once", cd.next.Sub(last), cd.atOnce)
	}
	cd = cadence{next: last.Add(iv), last: last}
	cd.plan.phase = ms(60)
	cd.regridIfMoved(ms(40), iv, now)
	if !cd.next.Equal(last.Add(ms(1020))) || cd.atOnce {
		t.Errorf("next grid sample %v after the last (at once %v), want 1020ms, on time", cd.next.Sub(last), cd.atOnce)
	}
}

// A grid sample taken at once because the grid moved past its point is
// not late: its lateness does not widen the margins of later plans.
func TestAtOnceSampleIsNoDelay(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	e := g.r.entries[0]
	g.r.SampleAll()
	now := time.Now()
	cd := cadence{next: now.Add(-ms(300)), last: now.Add(-ms(800)), atOnce: true}
	cd.plan.phase = gridPhase(time.Second)
	g.r.tick(e, &cd)
	if d := e.follow.pubLog.delay(); d >= ms(300) {
		t.Errorf("delay %v after a sample taken at once, want the sample's own time", d)
	}
	if cd.atOnce {
		t.Error("the mark stays after the sample")
	}
}
