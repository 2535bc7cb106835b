package engine

import (
	"cmp"
	"slices"
	"time"
)

// servedTolerance is how much older than planned a sample may be and
// still serve a reader's fetch: a grid sample or another reader's extra
// sample that early saves a sample of its own.
const servedTolerance = 20 * time.Millisecond

// samplingPlan is when a source samples beyond its grid's cadence: the
// grid's phase within the interval, and the extra samples planned before
// the fetches of readers the grid does not serve.
type samplingPlan struct {
	phase   time.Duration
	follows bool        // the phase follows a reader; false: gridPhase
	extras  []time.Time // ascending, all after the time planned at
	// primaryAt is when the primary reader's next fetch wants its
	// sample, after the time planned at; zero without a primary.
	primaryAt time.Time
}

// planInput is what a plan is made from.
type planInput struct {
	interval time.Duration
	delay    time.Duration // a sample's longest time from planned to published
	bound    int           // reader_phases: distinct phases, the grid's included; 0 off
	now      time.Time
}

// marginStep rounds margins up: sources whose samples take a little
// more or less time keep one phase for one reader, and wake together.
const marginStep = 5 * time.Millisecond

// margin is how long before a reader's predicted fetch its sample is
// planned: twice its jitter and the sample's delay, with 2 ms to spare,
// at least 5 ms, rounded up to marginStep, and at most a quarter interval.
func margin(jitter, delay, iv time.Duration) time.Duration {
	m := max(5*time.Millisecond, 2*jitter+delay+2*time.Millisecond)
	m = (m + marginStep - 1) / marginStep * marginStep
	return min(m, iv/4)
}

// plan works out the grid's phase and the extra samples for the readers
// of rs, and marks how each reader is served. The primary reader, whose
// fetches the grid's phase follows, is chosen by lead. Others of period
// at least the interval get an extra sample before their next fetch
// unless a grid sample or another extra serves it, up to bound-1 distinct
// phases. The rest are served by the grid.
func (rs *readerSet) plan(in planInput, out *samplingPlan) {
	iv := in.interval
	heldPhase, held := out.phase, out.follows
	out.phase, out.follows, out.extras, out.primaryAt = gridPhase(iv), false, out.extras[:0], time.Time{}
	for _, rd := range rs.list {
		rd.role = roleGrid
	}
	if in.bound <= 0 {
		rs.hasLead = false
		return
	}
	cands := rs.candidates(iv)
	if rd := rs.lead(cands, iv); rd != nil {
		rd.role = rolePrimary
		if rd.periodic || !held {
			m := margin(rd.jitter, in.delay, iv)
			out.phase = phaseOf(rd.nextFetch(in.now).Add(-m), iv)
			out.primaryAt = rd.nextFetch(in.now.Add(m)).Add(-m)
		} else {
			out.phase = heldPhase // a stall: the grid keeps the phase it had
		}
		out.follows = true
	}
	tol := min(servedTolerance, iv/4)
	var phases []time.Duration // the extras' distinct phases
	for _, rd := range cands {
		if rd.role == rolePrimary {
			continue
		}
		m := margin(rd.jitter, in.delay, iv)
		at := rd.nextFetch(in.now.Add(m)).Add(-m)
		if !onGrid(at.Add(-tol-1), iv, out.phase).After(at) {
			continue // a grid sample serves it
		}
		ph := phaseOf(at, iv)
		if !slices.ContainsFunc(phases, func(p time.Duration) bool { return circularGap(p, ph, iv) <= tol }) {
			if len(phases)+1 >= in.bound {
				continue // past the bound: the grid serves it
			}
			phases = append(phases, ph)
		}
		rd.role = roleExtra
		out.extras = addExtra(out.extras, at, tol)
	}
}

// periodQuantum is how finely candidates' periods are told apart: two
// readers at 1 s measure a few microseconds apart, and the one seen first
// leads.
const periodQuantum = 10 * time.Millisecond

// candidates are the periodic readers of period at least iv (within the
// period's tolerance), shortest period first (to periodQuantum), then
// first seen.
func (rs *readerSet) candidates(iv time.Duration) []*fetchReader {
	var out []*fetchReader
	for _, rd := range rs.list {
		if rd.periodic && rd.period+periodTolerance(rd.period) >= iv {
			out = append(out, rd)
		}
	}
	slices.SortFunc(out, func(a, b *fetchReader) int {
		return cmp.Or(cmp.Compare(a.period.Round(periodQuantum), b.period.Round(periodQuantum)),
			cmp.Compare(a.order, b.order))
	})
	return out
}

// lead is the reader the grid follows: the one it followed last, while
// that reader is tracked, was periodic at one of its last few fetches and
// has a period of a whole number of intervals, unless a periodic reader of
// a shorter period has come;
// otherwise the first candidate whose period is a whole number of
// intervals (shortest period, then first seen). Holding on to the reader
// through a late fetch or two (a client stalled under load is aperiodic
// for a few fetches) keeps the grid where it was: every move of the grid
// makes one step longer or shorter than the interval, and a peak over it
// is not a peak over the interval.
func (rs *readerSet) lead(cands []*fetchReader, iv time.Duration) *fetchReader {
	var best *fetchReader
	for _, rd := range cands {
		if commensurate(rd.period, iv) {
			best = rd
			break
		}
	}
	if cur := rs.leader(); cur != nil && cur.steadyLately() && commensurate(cur.period, iv) &&
		(best == nil || cur.period.Round(periodQuantum) <= best.period.Round(periodQuantum)) {
		best = cur
	}
	rs.hasLead = best != nil
	if best != nil {
		rs.leadClient = best.client
	}
	return best
}

// commensurate reports whether period is a whole number of intervals,
// within the period's tolerance: the reader's fetches then keep one phase
// of the interval.
func commensurate(period, iv time.Duration) bool {
	k := (period + iv/2) / iv
	return k >= 1 && (period-k*iv).Abs() <= periodTolerance(period)
}

// addExtra adds an extra sample at at to extras (ascending), unless one
// within tol before it serves it; one within tol after it moves to at,
// and serves both.
func addExtra(extras []time.Time, at time.Time, tol time.Duration) []time.Time {
	for i, x := range extras {
		if d := at.Sub(x); d >= 0 && d <= tol {
			return extras
		} else if d < 0 && -d <= tol {
			extras[i] = at
			slices.SortFunc(extras, time.Time.Compare)
			return extras
		}
	}
	i, _ := slices.BinarySearchFunc(extras, at, time.Time.Compare)
	return slices.Insert(extras, i, at)
}

// phaseOf is t's offset within its interval of length iv.
func phaseOf(t time.Time, iv time.Duration) time.Duration {
	return t.Sub(t.Truncate(iv))
}

// circularGap is the distance between two phases of an interval iv.
func circularGap(a, b, iv time.Duration) time.Duration {
	d := (a - b).Abs() % iv
	return min(d, iv-d)
}

// onGrid returns the first point after t of the grid of interval iv at
// offset phase.
func onGrid(t time.Time, iv, phase time.Duration) time.Time {
	return t.Add(-phase).Truncate(iv).Add(iv + phase)
}

// regrid is where the grid's next sample goes when its phase changes: the
// point of the new grid nearest a whole interval after the last grid
// sample, from half an interval to one and a half after it, so no step is
// a sliver nor nearly two intervals. The point may have passed when the
// phase changes late in a step: the loop then samples at once, and the
// grid goes on from that point.
func regrid(last time.Time, iv, phase time.Duration) time.Time {
	return onGrid(last.Add(iv/2).Add(-1), iv, phase)
}

// cadence is a source's schedule as its loop keeps it.
type cadence struct {
	next    time.Time // the next grid sample
	last    time.Time // when the last grid sample was taken; zero before one
	plan    samplingPlan
	backoff bool // next is a panic's backoff: no extra sample before it
	// atOnce marks a next that had passed when the grid moved to it: the
	// sample is taken at once, and its lateness is no sample's delay.
	atOnce bool
}

// due is when the loop samples next: the first extra sample planned
// before the next grid sample, or that one.
func (c *cadence) due() time.Time {
	if !c.backoff && len(c.plan.extras) > 0 && c.plan.extras[0].Before(c.next) {
		return c.plan.extras[0]
	}
	return c.next
}

// regridIfMoved moves the next grid sample onto the grid of the plan's
// phase when it differs from old, the phase the grid was on; never during
// a backoff, nor before the first grid sample.
func (c *cadence) regridIfMoved(old, iv time.Duration, now time.Time) {
	if c.plan.phase != old && !c.backoff && !c.last.IsZero() {
		c.next = regrid(c.last, iv, c.plan.phase)
		c.atOnce = !c.next.After(now)
	}
}

// bridge plans an extra sample for the primary reader's next fetch when
// the grid's next sample comes after it: the grid has just moved to the
// reader's phase, and the half interval a moved grid waits would
// otherwise leave that fetch an old sample. A grid sample at most tol
// before it serves it.
func (c *cadence) bridge(tol time.Duration) {
	at := c.plan.primaryAt
	if at.IsZero() || c.backoff || c.next.Sub(at) <= time.Millisecond || at.Sub(c.last) <= tol {
		return
	}
	c.plan.extras = addExtra(c.plan.extras, at, tol)
}
