package recorder

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// maxGapUsers bounds the users whose last request is remembered. Only
// users allowed to store get this far, so a host has a handful; past the
// bound the request remembered longest ago is forgotten.
const maxGapUsers = 256

// requestGaps remembers when each user last had a recording started, so
// that one user asks at most once per gap.
type requestGaps struct {
	last map[cache.Credentials]time.Time
}

// key is who a request counts against: the user alone, whatever group
// it came with; clients pmcd did not describe count as one.
func key(who cache.Credentials) cache.Credentials {
	if !who.Known {
		return cache.Credentials{}
	}
	return cache.Credentials{UID: who.UID, Known: true}
}

// wait is how long who must still wait before a request is allowed
// (0: allowed now).
func (g *requestGaps) wait(who cache.Credentials, now time.Time, gap time.Duration) time.Duration {
	last, ok := g.last[key(who)]
	if !ok || gap <= 0 {
		return 0
	}
	if left := gap - now.Sub(last); left > 0 {
		return left
	}
	return 0
}

// started records who's request at now, keeping the table bounded.
func (g *requestGaps) started(who cache.Credentials, now time.Time, gap time.Duration) {
	if g.last == nil {
		g.last = map[cache.Credentials]time.Time{}
	}
	if _, ok := g.last[key(who)]; !ok && len(g.last) >= maxGapUsers {
		g.forget(now, gap)
	}
	g.last[key(who)] = now
}

// forget drops the requests whose gap has passed, or else the oldest.
func (g *requestGaps) forget(now time.Time, gap time.Duration) {
	var oldest cache.Credentials
	var at time.Time
	for k, t := range g.last {
		if now.Sub(t) >= gap {
			delete(g.last, k)
		} else if at.IsZero() || t.Before(at) {
			oldest, at = k, t
		}
	}
	if len(g.last) >= maxGapUsers {
		delete(g.last, oldest)
	}
}
