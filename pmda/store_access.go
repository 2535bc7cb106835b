package pmda

// The store contract at the wire layer: which stores pmcd's clients may
// make and how they are refused. A store's values are checked first, then
// who asks (checkStore), so a malformed store is refused for what it is
// whoever sends it. The errors a storer fails with, the request and the
// storer's interfaces are the cache's (cache/store_contract.go); this file
// maps them to PM_ERR codes (storeErrno).

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// handleStore applies a pmstore: pmcd sends it as a RESULT. Every value is
// checked against its metric's type before the storer sees any of them,
// and the storer's checks come before who asks (checkStore).
func (s *Server) handleStore(h Header, pdu []byte) ([]byte, error) {
	var res Result
	if err := res.Decode(pdu); err != nil {
		return nil, err
	}
	if s.storesControls(res.Sets) {
		return s.storeControls(h.From, res.Sets)
	}
	var reqs []cache.PMStoreRequest
	for _, set := range res.Sets {
		d, ok := s.metricOf(set.PMID)
		if !ok {
			return nil, ErrPMID
		}
		if set.NumVal <= 0 {
			return nil, ErrBadStore
		}
		for _, v := range set.Values {
			val, err := storeValue(d.Type, set.ValFmt, v)
			if err != nil {
				return nil, err
			}
			val.Inst = v.Inst
			reqs = append(reqs, cache.PMStoreRequest{ID: d.ID, Inst: v.Inst, Value: val})
		}
	}
	if s.cfg.PMStore == nil {
		return nil, ErrPermission
	}
	if err := s.checkStore(h.From, reqs); err != nil {
		return nil, err
	}
	if err := s.cfg.PMStore.PMStore(reqs); err != nil {
		return nil, fmt.Errorf("%w (%v)", storeErrno(err), err)
	}
	return (&ErrorPDU{Code: 0}).Append(s.out[:0]), nil
}

// checkStore marks every request with the client asking, has the storer
// check the values, and refuses a client that may not store.
func (s *Server) checkStore(from int32, reqs []cache.PMStoreRequest) error {
	who := s.creds.credentials(from)
	for i := range reqs {
		reqs[i].Who = who
	}
	if c, ok := s.cfg.PMStore.(cache.PMStoreChecker); ok {
		if err := c.CheckPMStore(reqs); err != nil {
			return fmt.Errorf("%w (%v)", storeErrno(err), err)
		}
	}
	if s.cfg.StoreAccess != nil && !s.cfg.StoreAccess.Allows(who) {
		s.refusals.note(s.cfg.Log, s.cfg.Now(), from, who)
		return fmt.Errorf("%w (%v)", ErrPermission, cache.ErrNotAllowed)
	}
	return nil
}

// storeErrno maps a cache store error to the code pmstore reports.
func storeErrno(err error) Errno {
	var e Errno
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, cache.ErrUnknownMetric):
		return ErrPMID
	case errors.Is(err, cache.ErrReadOnly):
		return ErrPermission
	case errors.Is(err, cache.ErrNoInstance):
		return ErrInst
	case errors.Is(err, cache.ErrNegative):
		return ErrSign
	case errors.Is(err, cache.ErrOutOfRange):
		return ErrBadStore
	case errors.Is(err, cache.ErrBadType):
		return ErrType
	case errors.Is(err, cache.ErrBusy):
		return ErrAgain
	case errors.Is(err, cache.ErrNotAllowed):
		return ErrPermission
	}
	return ErrGeneric
}

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

// credentials are who client from is. It is known only when pmcd gave both
// its user and its group: a client described by halves is not trusted.
func (t *credTable) credentials(from int32) cache.Credentials {
	c, ok := t.byClient[from]
	if !ok || !c.hasUID || !c.hasGID {
		return cache.Credentials{}
	}
	return cache.Credentials{UID: c.uid, GID: c.gid, Known: true}
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
