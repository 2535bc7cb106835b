package engine

import (
	"strings"
	"testing"
	"time"
)

// ms is a duration of n milliseconds.
func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// fetchEvery feeds rs n fetches of client every period from first, the
// k-th off by jitter(k).
func fetchEvery(rs *readerSet, client int32, first time.Time, period time.Duration, n int, jitter func(k int) time.Duration) time.Time {
	var at time.Time
	for k := 0; k < n; k++ {
		at = first.Add(time.Duration(k) * period)
		if jitter != nil {
			at = at.Add(jitter(k))
		}
		rs.arrive(client, at, ms(3), true)
	}
	return at
}

func noJitter(int) time.Duration { return 0 }

// A reader fetching every second is periodic after two gaps, with the
// period of its fetches and no jitter; its next fetch is predicted.
func TestSteadyReaderIsPeriodic(t *testing.T) {
	var rs readerSet
	first := t0.Add(ms(250))
	fetchEvery(&rs, 7, first, time.Second, 2, noJitter)
	if rs.find(7).periodic {
		t.Error("periodic after one gap")
	}
	last := fetchEvery(&rs, 7, first, time.Second, 5, noJitter)
	rd := rs.find(7)
	if !rd.periodic || rd.period != time.Second || rd.jitter != 0 {
		t.Fatalf("periodic %v, period %v, jitter %v; want a periodic reader every 1s", rd.periodic, rd.period, rd.jitter)
	}
	if got := rd.nextFetch(last); !got.Equal(last.Add(time.Second)) {
		t.Errorf("next fetch %v after the last, want 1s", got.Sub(last))
	}
	if got := rd.nextFetch(last.Add(ms(2500))); !got.Equal(last.Add(3 * time.Second)) {
		t.Errorf("next fetch after 2.5 s: +%v, want +3s", got.Sub(last))
	}
	if rs.periodicCount() != 1 {
		t.Errorf("%d periodic readers, want 1", rs.periodicCount())
	}
}

// Jitter within the tolerance (2 % of the period, at least 10 ms) keeps a
// reader periodic, with the largest deviation as its jitter; more makes
// it aperiodic.
func TestJitterWithinTolerance(t *testing.T) {
	var rs readerSet
	swing := func(d time.Duration) func(int) time.Duration {
		return func(k int) time.Duration {
			if k == 5 {
				return d // one fetch late: gaps of 1s+d and 1s-d
			}
			return 0
		}
	}
	fetchEvery(&rs, 1, t0, time.Second, 8, swing(ms(8)))
	fetchEvery(&rs, 2, t0, time.Second, 8, swing(ms(40)))
	if rd := rs.find(1); !rd.periodic || rd.jitter != ms(8) {
		t.Errorf("8 ms of jitter: periodic %v, jitter %v; want periodic, 8ms", rd.periodic, rd.jitter)
	}
	if rd := rs.find(2); rd.periodic {
		t.Errorf("40 ms of jitter at 1 s: periodic, jitter %v", rd.jitter)
	}
}

// Fetches whose gaps do not agree leave a reader aperiodic, served by the
// grid; it is still described, with its median gap.
func TestAperiodicReader(t *testing.T) {
	var rs readerSet
	at := t0
	for _, gap := range []int{700, 1900, 300, 2600, 1100, 450} {
		at = at.Add(ms(gap))
		rs.arrive(3, at, 0, false)
	}
	if rd := rs.find(3); rd.periodic {
		t.Fatalf("periodic at %v", rd.period)
	}
	var p samplingPlan
	rs.plan(planInput{interval: time.Second, bound: 4, now: at}, &p)
	if p.follows || len(p.extras) != 0 {
		t.Errorf("an aperiodic reader moved the grid (%v) or got extras %v", p.follows, p.extras)
	}
	if d := rs.describe(); !strings.Contains(d, "client 3: not periodic") {
		t.Errorf("described as %q", d)
	}
}

// Fetches of one round (pmlogger's groups, a few ms apart) are one fetch.
func TestOneRoundIsOneFetch(t *testing.T) {
	var rs readerSet
	for k := 0; k < 6; k++ {
		at := t0.Add(time.Duration(k) * 10 * time.Second)
		rs.arrive(4, at, 0, false)
		rs.arrive(4, at.Add(ms(2)), 0, false)
	}
	if rd := rs.find(4); !rd.periodic || rd.period != 10*time.Second {
		t.Errorf("periodic %v at %v, want every 10s", rd.periodic, rd.period)
	}
}

// A reader that stops fetching is released two periods and a second after
// its last fetch; one pmcd says has gone, at once.
func TestReaderThatStopsIsReleased(t *testing.T) {
	var rs readerSet
	last := fetchEvery(&rs, 5, t0, 2*time.Second, 6, noJitter)
	fetchEvery(&rs, 6, t0, 2*time.Second, 6, noJitter)
	rs.expire(last.Add(ms(4900)))
	if rs.find(5) == nil {
		t.Fatal("released before two periods and a second")
	}
	rs.expire(last.Add(ms(5100)))
	if rs.find(5) != nil {
		t.Error("kept past two periods and a second")
	}
	var ok readerSet
	fetchEvery(&ok, 8, t0, time.Second, 6, noJitter)
	ok.forget(8)
	if ok.find(8) != nil {
		t.Error("a forgotten client is still tracked")
	}
}

// At maxReaders, a new client replaces the one seen least recently.
func TestReadersAtTheBound(t *testing.T) {
	var rs readerSet
	for c := 0; c < maxReaders; c++ {
		rs.arrive(int32(c), t0.Add(time.Duration(c)*time.Second), 0, false)
	}
	rs.arrive(0, t0.Add(100*time.Second), 0, false) // client 0 seen again
	rs.arrive(99, t0.Add(101*time.Second), 0, false)
	if len(rs.list) != maxReaders || rs.find(99) == nil || rs.find(0) == nil || rs.find(1) != nil {
		t.Errorf("%d readers; 99 %v, 0 %v, 1 %v: want client 1 dropped", len(rs.list), rs.find(99) != nil, rs.find(0) != nil, rs.find(1) != nil)
	}
}

// One odd gap, as a client's first fetch after it connects, stops only
// the count of agreeing gaps at it: the steady gaps after it make the
// reader periodic at its fourth fetch, and a new odd gap ends that.
func TestOddGapDoesNotHideSteadyOnes(t *testing.T) {
	var rs readerSet
	first := t0.Add(ms(0))
	rs.arrive(9, first, ms(3), true)
	late := first.Add(ms(1300)) // the odd gap
	fetchEvery(&rs, 9, late, time.Second, 3, noJitter)
	rd := rs.find(9)
	if !rd.periodic || rd.period != time.Second || rd.jitter != 0 {
		t.Fatalf("after an odd gap and two steady ones: periodic %v, period %v, jitter %v; want periodic every 1s", rd.periodic, rd.period, rd.jitter)
	}
	rs.arrive(9, late.Add(ms(2000+400)), ms(3), true) // the newest gap is odd
	if rd.periodic {
		t.Errorf("periodic with its newest gap 0.4 s against a 1 s period")
	}
}
