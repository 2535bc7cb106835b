package engine

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A client that leaves is forgotten, and however many clients arrive the
// marks kept stay bounded.
func TestClientsForgottenAndBounded(t *testing.T) {
	g := newIntervalRig(t, time.Minute)
	g.sample(at(0), steady(0))
	g.sample(at(1), steady(1))
	for c := int32(0); c < 10000; c++ {
		g.fetch(c*7919, "hostcache.rate.test.count")
	}
	if n := g.r.figures.clients.count(); n != 8 {
		t.Errorf("%d clients remembered, want the bound 8", n)
	}
	g.fetch(5, "hostcache.rate.test.count")
	g.r.Forget(5)
	if _, ok := g.r.figures.clients.byID[5]; ok {
		t.Error("client 5 still remembered after Forget")
	}
	g.fetch(cache.NoClient, "hostcache.rate.test.count")
	if _, ok := g.r.figures.clients.byID[cache.NoClient]; ok {
		t.Error("NoClient remembered")
	}
}
