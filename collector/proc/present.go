package proc

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// errInert: a group whose process collector is disabled lists nothing.
var errInert = errors.New("the process collector is disabled")

// listingShared is how long a listing of /proc answers the listings
// asked for after it: a fetch of a process metric and a group's asks
// twice, and fetches of several clients come together. At 10,000
// processes a listing is some 40 KB and a few milliseconds.
const listingShared = 5 * time.Millisecond

// listing is the latest listing of /proc, shared by the process
// collector and its groups through their board.
type listing struct {
	mu      sync.Mutex
	at      time.Time
	ids     []uint32 // sorted; never changed once listed, as fetches hold it
	lister  kernel.PIDLister
	scratch []int32
}

// present lists the processes below root now, or gives the listing taken
// less than listingShared ago.
func (l *listing) present(root string) ([]uint32, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids != nil && time.Since(l.at) < listingShared {
		return l.ids, nil
	}
	l.lister.Root = root
	var err error
	if l.scratch, err = l.lister.List(l.scratch); err != nil {
		return nil, err
	}
	ids := make([]uint32, len(l.scratch))
	for i, pid := range l.scratch {
		ids[i] = uint32(pid)
	}
	slices.Sort(ids)
	l.ids, l.at = ids, time.Now()
	return ids, nil
}

// listPresent lists the processes below root now into p, for a fetch the
// sample is late for: pmdaproc lists /proc at each fetch, so a process
// that exited since the newest sample has no value in the fetch here
// either. The hot processes are among them. A thread's id is not listed
// in /proc's directory, so the threads view keeps the sample's threads.
func listPresent(l *listing, root string, p *cache.Present) error {
	ids, err := l.present(root)
	if err != nil {
		return err
	}
	p.Set(indomProcess, ids)
	p.Set(indomHot, ids)
	return nil
}

// Present lists the processes that exist now (engine.Lister).
func (c *processCollector) Present(p *cache.Present) error {
	return listPresent(&c.board.listing, c.reader.root, p)
}

// Present lists the processes that exist now (engine.Lister).
func (c *groupCollector) Present(p *cache.Present) error {
	if c.inert {
		return errInert
	}
	return listPresent(&c.board.listing, c.rd.root, p)
}
