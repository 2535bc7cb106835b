package engine

import (
	"sync"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// DefaultMaxClients bounds how many pmcd clients have their interval
// remembered. pmcd numbers its clients from 0 and reuses numbers, so a host
// has about as many as it has concurrent PCP tools; past the bound the
// client seen least recently is forgotten (its next fetch is a first one).
const DefaultMaxClients = 256

// clients remembers, for each pmcd client and each metric computed over a
// client's interval, which sample the client's previous fetch of that
// metric ended at. Fetches are served one at a time, so the lock is
// uncontended; it makes the marks safe whatever serves them.
type clients struct {
	mu      sync.Mutex
	byID    map[int32]*clientMarks
	metrics int // windowed metrics: the length of each client's marks
	max     int
	clock   uint64
	// last is the client asked about last: a fetch asks for many metrics
	// of one client in a row, so most look-ups skip the map.
	lastID    int32
	lastMarks *clientMarks
}

// clientMarks is one client's marks: seen[k] is the end sample's sequence
// number + 1 of its last fetch of windowed metric k, 0 if none.
type clientMarks struct {
	seen []uint64
	used uint64
}

func newClients(metrics, maxClients int) *clients {
	return &clients{byID: map[int32]*clientMarks{}, metrics: metrics, max: maxClients}
}

// swap returns the sample client c's previous fetch of metric k ended at
// (seq+1, 0 for none) and records end as its new mark. NoClient is never
// remembered: every read of it is a first fetch.
func (cs *clients) swap(c int32, k int, end uint64) uint64 {
	if c == cache.NoClient {
		return 0
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	m := cs.marks(c)
	old := m.seen[k]
	m.seen[k] = end + 1
	return old
}

// marks returns client c's marks, making room for them if c is new.
func (cs *clients) marks(c int32) *clientMarks {
	cs.clock++
	if cs.lastMarks != nil && cs.lastID == c {
		cs.lastMarks.used = cs.clock
		return cs.lastMarks
	}
	if m, ok := cs.byID[c]; ok {
		m.used = cs.clock
		cs.lastID, cs.lastMarks = c, m
		return m
	}
	if len(cs.byID) >= cs.max {
		cs.evictOldest()
	}
	m := &clientMarks{seen: make([]uint64, cs.metrics), used: cs.clock}
	cs.byID[c] = m
	cs.lastID, cs.lastMarks = c, m
	return m
}

// evictOldest forgets the client seen least recently.
func (cs *clients) evictOldest() {
	var oldest int32
	first := true
	for id, m := range cs.byID {
		if first || m.used < cs.byID[oldest].used {
			oldest, first = id, false
		}
	}
	delete(cs.byID, oldest)
	if cs.lastID == oldest {
		cs.lastMarks = nil
	}
}

// Forget frees what is kept for client c: pmcd says it has gone.
func (cs *clients) Forget(c int32) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.byID, c)
	if cs.lastID == c {
		cs.lastMarks = nil
	}
}

// remap moves every client's marks of metrics lo to lo+n-1 to their new
// places: a dynamic source's figures, placed anew. New mark lo+i is old
// mark lo+from[i]; a figure from -1, or past from, starts with none.
func (cs *clients) remap(lo, n int, from []int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	was := make([]uint64, n)
	for _, m := range cs.byID {
		copy(was, m.seen[lo:lo+n])
		clear(m.seen[lo : lo+n])
		for i, j := range from[:min(len(from), n)] {
			if j >= 0 && j < n {
				m.seen[lo+i] = was[j]
			}
		}
	}
}

// count is how many clients are remembered now.
func (cs *clients) count() int {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.byID)
}
