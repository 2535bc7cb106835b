package engine

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// PCP's clients compute rates from the counters and pmcd's time of each
// fetch, so the sample a fetch is answered from must be as of the fetch:
// a client's interval of counter time must be the interval its time
// stamps say. Reader phases (phase.go) have a sample waiting for the
// fetches of periodic readers; a fetch that finds its sources' newest
// samples older than the freshness bound (a new client, an erratic one,
// one at a phase not served) has them sampled, and waits for them up to
// the fetch deadline.

// DefaultFreshWithin and DefaultFetchWait are the freshness bound and the
// fetch deadline when the schedule gives none.
const (
	DefaultFreshWithin = 20 * time.Millisecond
	DefaultFetchWait   = 100 * time.Millisecond
)

// freshness is the runner's part in answering fetches with fresh
// samples: the bound and the deadline, the entry of each source, the
// fetches' scratch, and what the self-metrics show.
type freshness struct {
	withinNS atomic.Int64 // the freshness bound; 0 answers from the samples taken
	waitNS   atomic.Int64 // the fetch deadline
	bySource []*entry     // each collector's entry by source index; nil for the control source
	waits    sync.Pool
	sampled  atomic.Uint64  // fetches that had a source sampled
	misses   atomic.Uint64  // fetches that waited their deadline out
	ages     fetchDurations // the age of the oldest sample each fetch is answered from
	answers  fetchDurations // how long each fetch took to answer
}

func (fr *freshness) init() { fr.waits.New = func() any { return &fetchWait{} } }

// set takes the freshness bound and the fetch deadline (DefaultFetchWait
// when not above 0).
func (fr *freshness) set(within, wait time.Duration) {
	fr.withinNS.Store(int64(max(0, within)))
	if wait <= 0 {
		wait = DefaultFetchWait
	}
	fr.waitNS.Store(int64(wait))
}

// fetchFresh is one source's part in answering fetches with fresh samples.
type fetchFresh struct {
	demand chan struct{} // a fetch asks the source's loop for a sample
	mu     sync.Mutex
	at     time.Time     // when the newest sample was taken, or tried
	wanted time.Time     // the latest fetch that asked for a sample
	done   chan struct{} // closed at the next sample; nil while no fetch waits
	// stuck is set when the source missed a fetch's deadline (a blocked
	// read): no fetch waits for it again until it completes a sample.
	stuck atomic.Bool
	// took is the lower median of the last tookKept samples that read
	// their files and no fetch missed its deadline for: a source slower
	// than the deadline three times in four is not waited for, while one
	// slowed once or twice (a busy host) is, and one that was blocked is
	// again once it recovers.
	took   atomic.Int64
	recent [tookKept]time.Duration // under mu; 0: none yet
	next   int
	taken  atomic.Uint64 // samples taken for fetches
	misses atomic.Uint64 // fetches that waited their deadline out for it
	warned atomic.Int64  // when a miss was last logged, ns since the epoch
}

// tookKept is how many samples' durations took is the lower median of.
const tookKept = 4

// missWarnGap is how often a source's missed deadlines are logged at most.
const missWarnGap = time.Minute

// shouldWarn reports whether a miss at now is logged: one a minute at most.
func (ff *fetchFresh) shouldWarn(now time.Time) bool {
	last := ff.warned.Load()
	return now.UnixNano()-last >= int64(missWarnGap) && ff.warned.CompareAndSwap(last, now.UnixNano())
}

func newFetchFresh() fetchFresh { return fetchFresh{demand: make(chan struct{}, 1)} }

// await returns what a fetch at now waits on for a fresh sample, and
// asks the source's loop for one: nil when the newest sample is at most
// bound old, or the source is stuck.
func (ff *fetchFresh) await(now time.Time, bound time.Duration) <-chan struct{} {
	if ff.stuck.Load() {
		return nil
	}
	ff.mu.Lock()
	defer ff.mu.Unlock()
	if !ff.at.IsZero() && now.Sub(ff.at) <= bound {
		return nil
	}
	if ff.done == nil {
		ff.done = make(chan struct{}) // made only when a fetch waits
	}
	if now.After(ff.wanted) {
		ff.wanted = now
	}
	ff.ask()
	return ff.done
}

// due reports whether a fetch wants a sample newer than bound before it:
// the bound is also how often fetches may have the source sampled.
func (ff *fetchFresh) due(bound time.Duration) bool {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return ff.at.IsZero() || ff.wanted.Sub(ff.at) > bound
}

// stale makes the next fetch sample the source anew: a store changed
// what its sample gives.
func (ff *fetchFresh) stale() {
	ff.mu.Lock()
	ff.at = time.Time{}
	ff.mu.Unlock()
}

// ask wakes the source's loop for a sample, unless it is asked already.
func (ff *fetchFresh) ask() {
	select {
	case ff.demand <- struct{}{}:
	default:
	}
}

// sampled records a sample taken at at in took, whatever it gave, and
// releases the fetches waiting for it. A zero at is a sample that read
// nothing (a slowed OnDemand source): its time says nothing of the
// source's pace.
func (ff *fetchFresh) sampled(at time.Time, took time.Duration) {
	ff.mu.Lock()
	if !ff.stuck.Load() && !at.IsZero() {
		ff.noteTook(took)
	}
	ff.at = at
	ff.releaseLocked()
	ff.mu.Unlock()
	ff.stuck.Store(false)
}

// noteTook keeps took among the recent durations and stores their lower
// median. Called with mu held.
func (ff *fetchFresh) noteTook(took time.Duration) {
	ff.recent[ff.next] = max(took, 1)
	ff.next = (ff.next + 1) % tookKept
	var kept [tookKept]time.Duration
	n := 0
	for _, d := range ff.recent {
		if d > 0 {
			kept[n] = d
			n++
		}
	}
	slices.Sort(kept[:n])
	ff.took.Store(int64(kept[(n-1)/2]))
}

// release lets the fetches waiting go with the newest sample: nothing
// newer comes now.
func (ff *fetchFresh) release() {
	ff.mu.Lock()
	ff.releaseLocked()
	ff.mu.Unlock()
}

func (ff *fetchFresh) releaseLocked() {
	if ff.done != nil {
		close(ff.done)
		ff.done = nil
	}
}

// newest is when the newest sample was taken.
func (ff *fetchFresh) newest() time.Time {
	ff.mu.Lock()
	defer ff.mu.Unlock()
	return ff.at
}

// fetchWait is one fetch's scratch while it waits: kept in a pool, so a
// fetch allocates nothing.
type fetchWait struct {
	entries []*entry
	chans   []<-chan struct{}
	again   []bool // the wait is the second for its entry
	timer   *time.Timer
}

// Freshen has each of sources sampled whose newest sample is older than
// the freshness bound at now, and waits for them up to the fetch
// deadline. A source whose samples take longer than the deadline is not
// waited for: its fetch could not have it in time. Then it records the
// age of the oldest sample the fetch is served, and returns the
// instances that exist now of the sources still late (present.go).
func (r *Runner) Freshen(sources []int, now time.Time) *cache.Present {
	var p *cache.Present
	if bound := time.Duration(r.fresh.withinNS.Load()); bound > 0 {
		w := r.fresh.waits.Get().(*fetchWait)
		r.fresh.wait(w, sources, now, bound)
		r.fresh.waits.Put(w)
		p = r.fresh.present(sources, now, bound)
	}
	r.fresh.noteServed(sources)
	return p
}

// Answered records how long a fetch took to answer (cache.Freshener).
func (r *Runner) Answered(took time.Duration) { r.fresh.answers.add(took) }

// wait asks for and waits for the samples of sources a fetch at now
// needs.
func (fr *freshness) wait(w *fetchWait, sources []int, now time.Time, bound time.Duration) {
	wait := time.Duration(fr.waitNS.Load())
	w.entries, w.chans, w.again = w.entries[:0], w.chans[:0], w.again[:0]
	for _, src := range sources {
		e := fr.entryOf(src)
		if e == nil || time.Duration(e.fresh.took.Load()) > wait {
			continue
		}
		if ch := e.fresh.await(now, bound); ch != nil {
			w.add(e, ch, false)
		}
	}
	if len(w.chans) == 0 {
		return
	}
	fr.sampled.Add(1)
	if w.timer == nil {
		w.timer = time.NewTimer(wait)
	} else {
		w.timer.Reset(wait)
	}
	defer w.timer.Stop()
	if fr.awaitAll(w, now, bound) {
		fr.misses.Add(1)
	}
}

func (w *fetchWait) add(e *entry, ch <-chan struct{}, again bool) {
	w.entries, w.chans, w.again = append(w.entries, e), append(w.chans, ch), append(w.again, again)
}

// awaitAll waits for every channel of w until its timer fires, and marks
// the sources that missed it stuck. It reports whether any did. A sample
// that was under way when the fetch at now arrived, and had begun more
// than bound before it, read its files before the fetch was asked: the
// fetch waits once more, for the sample its demand brings.
func (fr *freshness) awaitAll(w *fetchWait, now time.Time, bound time.Duration) (missed bool) {
	expired := false
	for i := 0; i < len(w.chans); i++ {
		ch := w.chans[i]
		if !expired {
			select {
			case <-ch:
				if !w.again[i] {
					if next := w.entries[i].fresh.await(now, bound); next != nil {
						w.add(w.entries[i], next, true)
					}
				}
				continue
			case <-w.timer.C:
				expired = true
			}
		}
		select {
		case <-ch:
		default:
			e := w.entries[i]
			e.fresh.stuck.Store(true)
			if e.fresh.misses.Add(1); e.fresh.shouldWarn(time.Now()) {
				e.log.Warn().Dur("waited", time.Duration(fr.waitNS.Load())).
					Uint64("misses", e.fresh.misses.Load()).
					Msg("a fetch waited its deadline out for this collector; " +
						"its metrics answer from the cache until it samples again")
			}
			missed = true
		}
	}
	return missed
}

// entryOf returns the collector entry that publishes source src, or nil
// (the control source, computed when read).
func (fr *freshness) entryOf(src int) *entry {
	if src < 0 || src >= len(fr.bySource) {
		return nil
	}
	return fr.bySource[src]
}

// sampleForFetch takes the sample a fetch asked for, unless the newest
// is within the freshness bound of that fetch already, or the collector
// has yet to take its first sample or rests after a panic.
func (r *Runner) sampleForFetch(e *entry) {
	bound := time.Duration(r.fresh.withinNS.Load())
	if e.stats.samples.Load() == 0 || e.sched.panicStreak > 0 || bound <= 0 || !e.fresh.due(bound) {
		e.fresh.release()
		return
	}
	// Counted before the sample: the sample releases the fetch waiting
	// for it, which may read the count at once.
	e.fresh.taken.Add(1)
	r.sampleOnce(e, time.Time{}, true)
}
