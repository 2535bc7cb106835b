package engine

import (
	"testing"
	"time"
)

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
