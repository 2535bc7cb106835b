package engine

import (
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// DefaultIdleFactor is how much less often an unread source samples.
const DefaultIdleFactor = 10

// idleBackoff is the runner's rule for sources no client reads: unread
// for afterMS, a source samples factor times less often until a client
// reads one of its metrics again.
type idleBackoff struct {
	afterMS atomic.Int64 // unread this long, a source slows down; 0 never
	factor  atomic.Int64 // by this factor
	started time.Time    // reads are counted from here
}

// idleState is one source's part in the back-off.
type idleState struct {
	// slowed is set while no client reads the source and it samples
	// factor times less often.
	slowed atomic.Bool
	// paced is the collector when it is a Paced one (asserted once: an
	// interface assertion each sample cost an itab lookup), and pace the
	// factor it was last given (the loop's own).
	paced Paced
	pace  int
	// onDemand is set for an OnDemand collector: never read, it counts
	// as unread from the start.
	onDemand bool
}

// set takes the back-off's settings: a factor under 2 is the default.
func (b *idleBackoff) set(after time.Duration, factor int) {
	b.afterMS.Store(after.Milliseconds())
	if factor < 2 {
		factor = DefaultIdleFactor
	}
	b.factor.Store(int64(factor))
}

// update decides, as a sample starts, whether the source has gone unread
// for afterMS (and samples factor times less often from now) or is read
// again.
func (b *idleBackoff) update(schema *cache.Schema, e *entry, now time.Time) {
	after := time.Duration(b.afterMS.Load()) * time.Millisecond
	unread := false
	if after > 0 && schema != nil {
		last := schema.LastRead(e.source)
		switch {
		case last.IsZero() && e.idle.onDemand:
			unread = true
		case last.Before(b.started):
			last = b.started
			fallthrough
		default:
			unread = now.Sub(last) >= after
		}
	}
	if unread != e.idle.slowed.Load() {
		e.setIdle(schema, unread)
	}
}

// setIdle marks a source slowed down or not, where reads see it.
func (e *entry) setIdle(schema *cache.Schema, idle bool) {
	e.idle.slowed.Store(idle)
	schema.SetIdle(e.source, idle)
	e.log.Debug().Bool("idle", idle).Msg("sampling interval changed: no client reads this source")
}

// slowIfUnread returns when the source samples next: next (its next tick
// at full rate), or, while no client reads it, the first point at or
// after next of the grid of its slow interval (factor intervals).
// Counting the slow interval from whenever the source went unread gave
// each source a phase of its own, and an unread agent woke three or four
// times every ten seconds instead of once: on the slow grid, as on the
// full-rate one, every source due at an instant wakes with the others.
func (b *idleBackoff) slowIfUnread(e *entry, next time.Time) time.Time {
	if !e.idle.slowed.Load() {
		return next
	}
	return aligned(next.Add(-time.Nanosecond), time.Duration(b.factor.Load())*e.interval())
}

// pace tells a Paced collector how much slower than its interval it
// samples, when that changed since its last sample.
func (b *idleBackoff) pace(e *entry) {
	if e.idle.paced == nil {
		return
	}
	f := 1
	if e.idle.slowed.Load() {
		f = int(b.factor.Load())
	}
	if f != e.idle.pace {
		e.idle.paced.Pace(f)
		e.idle.pace = f
	}
}

// effectiveInterval is how often the source samples now: its interval,
// or factor times it while no client reads it.
func (b *idleBackoff) effectiveInterval(e *entry) time.Duration {
	if e.idle.slowed.Load() {
		return time.Duration(b.factor.Load()) * e.interval()
	}
	return e.interval()
}
