package engine

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// listingGated is a gated collector that also lists its instances:
// 7 and 9 exist now. Its listing blocks while block is open.
type listingGated struct {
	gated
	block chan struct{}
}

const listedInDom cache.InDomID = 5

func (l *listingGated) Present(p *cache.Present) error {
	if l.block != nil {
		<-l.block
	}
	p.Set(listedInDom, []uint32{7, 9})
	return nil
}

// TestLateFetchListsTheInstances: a fetch whose sample misses the
// deadline gets the instances the source lists now; a fetch answered
// fresh gets none; a listing that blocks leaves the fetch without one.
func TestLateFetchListsTheInstances(t *testing.T) {
	l := &listingGated{}
	r, _, src := freshRunner(t, l, 20*time.Millisecond, 30*time.Millisecond)
	e := r.entries[0]

	ageNewest(e, time.Second)
	if p := r.Freshen([]int{src}, time.Now()); p != nil {
		t.Fatalf("a fetch sampled in time got a listing: %+v", p)
	}

	l.close()
	ageNewest(e, time.Second)
	p := r.Freshen([]int{src}, time.Now())
	if !p.Has(listedInDom, 7) || !p.Has(listedInDom, 9) || p.Has(listedInDom, 8) {
		t.Fatalf("a late fetch got %+v, want instances 7 and 9 of domain %d", p, listedInDom)
	}
	if !p.Has(listedInDom+1, 8) {
		t.Error("an instance of a domain the listing does not name is left out")
	}

	// Stuck now: the next fetch does not wait, and lists again.
	// A listing that blocks: the fetch goes on without it (were it to
	// wait, the test would hang here).
	l.block = make(chan struct{})
	if p = r.Freshen([]int{src}, time.Now()); !p.Has(listedInDom, 8) {
		t.Errorf("a blocked listing gave %+v", p)
	}
	close(l.block)
	l.open()
}
