package cache

import (
	"sync/atomic"
	"time"
)

// usage records, per source, when a client last read one of its metrics,
// so that the sampler can slow down a source nobody reads and speed it
// up again on the first read. It is the one part of a Schema that
// changes, and only through atomics: reads stay lock-free and free of
// allocations.
type usage struct {
	lastRead []atomic.Int64 // Unix nanoseconds; 0: never read
	idle     []atomic.Bool  // the sampler has slowed the source down
	wake     []chan struct{}
	arrivals []arrivals // each source's recent fetches, for the sampler to learn its readers
}

func newUsage(sources int) usage {
	u := usage{lastRead: make([]atomic.Int64, sources), idle: make([]atomic.Bool, sources),
		wake: make([]chan struct{}, sources), arrivals: make([]arrivals, sources)}
	for i := range u.wake {
		u.wake[i] = make(chan struct{}, 1)
	}
	return u
}

// readGranularity is how stale a last-read time may be: most fetches read
// many metrics of a source, and one store in this span is enough.
const readGranularity = 100 * time.Millisecond

// noteRead records client's read of the metric at schema index i, made at
// now, and wakes the source's sampler if it had slowed down.
func (s *Schema) noteRead(i int, client int32, now time.Time) {
	src := s.srcOf[i]
	s.use.arrivals[src].note(client, now.UnixNano())
	s.NoteSourceRead(src, now)
}

// NoteSourceRead records a read of source at now, as a fetch about to
// read its metrics makes, and wakes its sampler if it had slowed down.
func (s *Schema) NoteSourceRead(source int, now time.Time) {
	if source < 0 || source >= len(s.use.lastRead) {
		return
	}
	ns := now.UnixNano()
	if last := &s.use.lastRead[source]; ns-last.Load() >= int64(readGranularity) {
		last.Store(ns)
	}
	if s.use.idle[source].Load() {
		select {
		case s.use.wake[source] <- struct{}{}:
		default:
		}
	}
}

// LastRead is when a client last read a metric of source (zero: never).
func (s *Schema) LastRead(source int) time.Time {
	ns := s.use.lastRead[source].Load()
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// SetIdle marks a source as slowed down (reads then wake it) or not.
func (s *Schema) SetIdle(source int, idle bool) { s.use.idle[source].Store(idle) }

// ReadWake is signalled when a client reads a metric of source while it is
// marked idle.
func (s *Schema) ReadWake(source int) <-chan struct{} { return s.use.wake[source] }

// arrivalSlots is how many fetches of a source are kept until the sampler
// drains them: it drains at every sample, and a source is rarely fetched
// more than a few times between two.
const arrivalSlots = 64

// arrivals is one source's ring of recent fetches: one event per fetch,
// however many of the source's metrics it reads. The fetch path writes
// and the sampler reads, both without locks: each slot is a seqlock, so a
// reader never sees a torn (client, time) pair, and a writer that laps
// the reader overwrites the oldest events rather than waiting.
type arrivals struct {
	head       atomic.Uint64 // events ever written
	lastClient atomic.Int32  // the newest event, to drop the same fetch's other reads
	lastAt     atomic.Int64
	slots      [arrivalSlots]arrivalSlot
}

// arrivalSlot holds event n while seq is 2n+2; 2n+1 while it is written.
type arrivalSlot struct {
	seq    atomic.Uint64
	client atomic.Int32
	at     atomic.Int64 // Unix nanoseconds
}

// note records a fetch by client at ns, unless it is the newest event's.
// Fetches are served one at a time: concurrent writers could at worst
// record one fetch twice, which the sampler's learner ignores.
func (a *arrivals) note(client int32, ns int64) {
	if a.lastAt.Load() == ns && a.lastClient.Load() == client {
		return
	}
	a.lastClient.Store(client)
	a.lastAt.Store(ns)
	n := a.head.Add(1) - 1
	sl := &a.slots[n%arrivalSlots]
	old := sl.seq.Load()
	if old&1 == 1 || old >= 2*n+1 || !sl.seq.CompareAndSwap(old, 2*n+1) {
		return // a writer still in this slot, or one of a later lap: lose this event
	}
	sl.client.Store(client)
	sl.at.Store(ns)
	sl.seq.Store(2*n + 2)
}

// read calls fn for each event numbered after or later, oldest first, and
// returns the number of the first event it has not read: the next call's
// after. It stops at an event still being written, to read it next time;
// events overwritten before they were read are lost.
func (a *arrivals) read(after uint64, fn func(client int32, at time.Time)) uint64 {
	head := a.head.Load()
	if head > after+arrivalSlots {
		after = head - arrivalSlots
	}
	for n := after; n < head; n++ {
		sl := &a.slots[n%arrivalSlots]
		seq := sl.seq.Load()
		if seq <= 2*n+1 {
			return n // claimed, not written yet
		}
		client, ns := sl.client.Load(), sl.at.Load()
		if seq != 2*n+2 || sl.seq.Load() != seq {
			continue // overwritten by a later lap
		}
		fn(client, time.Unix(0, ns))
	}
	return head
}

// Arrivals calls fn for each fetch of source's metrics recorded since the
// call that returned after (0 at first), oldest first: the client and the
// request's time, once per fetch. It returns the after of the next call.
// Only the source's sampler should call it.
func (s *Schema) Arrivals(source int, after uint64, fn func(client int32, at time.Time)) uint64 {
	return s.use.arrivals[source].read(after, fn)
}
