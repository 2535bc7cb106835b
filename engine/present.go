package engine

import (
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// listWait is how long a fetch waits for a Lister's listing: it comes
// after the fetch deadline was missed, so it is short, and a listing
// that does not come in time leaves the older sample's instances.
const listWait = 50 * time.Millisecond

// maxListings bounds the listings under way for one source: fetches of
// several clients may list at once, but listings blocked in the kernel
// do not pile up.
const maxListings = 4

// presence is one Lister source's part in a late fetch.
type presence struct {
	lister   Lister
	underway atomic.Int32 // listings under way (some perhaps blocked)
}

// present lists the instances of the Lister sources among sources whose
// newest sample is older than bound at now: their values come from a
// sample taken before the fetch, and an instance gone since has none. Nil
// when every source is fresh or none is a Lister.
func (fr *freshness) present(sources []int, now time.Time, bound time.Duration) *cache.Present {
	var p *cache.Present
	for _, src := range sources {
		e := fr.entryOf(src)
		if e == nil || e.presence.lister == nil {
			continue
		}
		if at := e.fresh.newest(); !at.IsZero() && now.Sub(at) <= bound {
			continue
		}
		if p == nil {
			p = &cache.Present{}
		}
		e.presence.list(p, e)
	}
	return p
}

// list has the source list its instances into p, waiting listWait at
// most; p is left as it was when the listing fails or is late.
func (pr *presence) list(p *cache.Present, e *entry) {
	if pr.underway.Add(1) > maxListings {
		pr.underway.Add(-1)
		return
	}
	got := &cache.Present{}
	done := make(chan error, 1)
	go func() {
		defer pr.underway.Add(-1)
		done <- pr.lister.Present(got)
	}()
	timer := time.NewTimer(listWait)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			e.log.Debug().Err(err).Msg("listing the instances for a late fetch")
			return
		}
		p.Merge(got)
	case <-timer.C:
		e.log.Debug().Dur("waited", listWait).Msg("no listing of the instances in time for a late fetch")
	}
}
