package pmda

import (
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// StoreAccess says who may store: a client whose user is one of Users or
// whose primary group is one of Groups. pmcd gives no supplementary
// groups, so membership through them does not count.
type StoreAccess struct {
	Users  []uint32
	Groups []uint32
}

// Allows reports whether who may store. A client pmcd did not describe
// (a remote one, a debugger that sends no attributes) may not.
func (a *StoreAccess) Allows(who cache.Credentials) bool {
	if !who.Known {
		return false
	}
	return slices.Contains(a.Users, who.UID) || slices.Contains(a.Groups, who.GID)
}

// refusalLog logs at most refusalsPerMinute refused stores a minute, and
// how many were not logged before: a client storing in a loop does not
// fill the log.
type refusalLog struct {
	window time.Time // when the current minute started
	logged int       // refusals logged in it
	missed int       // refusals not logged since the last one that was
}

const refusalsPerMinute = 10

func (l *refusalLog) note(log zerolog.Logger, now time.Time, from int32, who cache.Credentials) {
	if now.Sub(l.window) >= time.Minute {
		l.window, l.logged = now, 0
	}
	if l.logged >= refusalsPerMinute {
		l.missed++
		return
	}
	ev := log.Warn().Int32("from", from).Int("not_logged", l.missed)
	if who.Known {
		ev = ev.Uint32("uid", who.UID).Uint32("gid", who.GID)
	} else {
		ev = ev.Str("uid", "unknown")
	}
	ev.Msg("store refused: the client is not allowed to store (store_users, store_groups)")
	l.logged, l.missed = l.logged+1, 0
}
