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
}

func newUsage(sources int) usage {
	u := usage{lastRead: make([]atomic.Int64, sources), idle: make([]atomic.Bool, sources),
		wake: make([]chan struct{}, sources)}
	for i := range u.wake {
		u.wake[i] = make(chan struct{}, 1)
	}
	return u
}

// readGranularity is how stale a last-read time may be: most fetches read
// many metrics of a source, and one store in this span is enough.
const readGranularity = 100 * time.Millisecond

// noteRead records a client's read of the metric at schema index i, and
// wakes the source's sampler if it had slowed down.
func (s *Schema) noteRead(i int, now time.Time) {
	src := s.srcOf[i]
	ns := now.UnixNano()
	if last := &s.use.lastRead[src]; ns-last.Load() >= int64(readGranularity) {
		last.Store(ns)
	}
	if s.use.idle[src].Load() {
		select {
		case s.use.wake[src] <- struct{}{}:
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
