package cache

import (
	"sync/atomic"
	"time"
)

// Freshener samples sources for a fetch. PCP's clients compute rates from
// the counters and pmcd's time of each fetch, so the values a fetch gets
// must be as of the fetch, not as of a sample up to an interval before it.
type Freshener interface {
	// Freshen returns once each of sources has published a sample taken
	// at most the freshness bound before now, or when the fetch may wait
	// no longer. Fetches answer from the front after it returns. For the
	// sources still without a sample as of now, it may say which of their
	// instances exist now (nil: it knows nothing more).
	Freshen(sources []int, now time.Time) *Present
	// Answered records how long a fetch took from its arrival to its
	// reply, waits included: the agent's own part of what its client
	// waited, the rest being pmcd's and the client's.
	Answered(took time.Duration)
}

// front's freshener, kept apart so a Front without one costs a fetch one
// atomic load.
type freshHook struct{ f Freshener }

// SetFreshener makes f sample the sources a fetch reads before the fetch
// loads its snapshot (nil: fetches read what is published).
func (st *Front) SetFreshener(f Freshener) {
	if f == nil {
		st.fresh.Store(nil)
		return
	}
	st.fresh.Store(&freshHook{f: f})
}

// Freshen asks the front's freshener, if any, for fresh samples of
// sources as of now. The sources count as read from now on, before they
// sample: one slowed down for want of readers samples this fetch's
// sample at its full pace. It returns what the freshener knows of the
// instances of late sources, for the fetch's Request.
func (st *Front) Freshen(sources []int, now time.Time) *Present {
	schema := st.Schema()
	for _, src := range sources {
		schema.NoteSourceRead(src, now)
	}
	if h := st.fresh.Load(); h != nil && len(sources) > 0 {
		return h.f.Freshen(sources, now)
	}
	return nil
}

// Answered tells the front's freshener, if any, how long a fetch took to
// answer.
func (st *Front) Answered(took time.Duration) {
	if h := st.fresh.Load(); h != nil {
		h.f.Answered(took)
	}
}

// freshPtr is the Front's field type.
type freshPtr = atomic.Pointer[freshHook]

// SourceOfInDom returns the index of the source that owns instance domain id.
func (s *Schema) SourceOfInDom(id InDomID) (int, bool) {
	src, ok := s.indomOwn[id]
	return src, ok
}

// SourceOfID returns the index of the source that publishes metric id.
func (s *Schema) SourceOfID(id MetricID) (int, bool) {
	i, ok := s.index(id)
	if !ok {
		return 0, false
	}
	return s.srcOf[i], true
}
