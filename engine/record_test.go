package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// askedRecorder remembers the requests it is given.
type askedRecorder struct{ who []cache.Credentials }

func (a *askedRecorder) Start(span time.Duration, who cache.Credentials) error {
	a.who = append(a.who, who)
	return nil
}

func (a *askedRecorder) Status() RecordStatus { return RecordStatus{} }

// A recording is asked for on behalf of the client the store came from;
// CheckPMStore refuses what PMStore would, and starts nothing.
func TestRecordCarriesWhoAsked(t *testing.T) {
	r, _ := newTestRunner(t, &scripted{name: "a"}, time.Second)
	rec := &askedRecorder{}
	r.SetRecorder(rec)
	pcp := cache.Credentials{UID: 999, GID: 995, Known: true}
	req := []cache.PMStoreRequest{{ID: ctlRecSeconds.ID, Inst: cache.InstNone, Value: cache.U32Value(cache.InstNone, 60), Who: pcp}}
	if err := r.CheckPMStore(req); err != nil || len(rec.who) != 0 {
		t.Fatalf("check: %v, %d started", err, len(rec.who))
	}
	if err := r.PMStore(req); err != nil || len(rec.who) != 1 || rec.who[0] != pcp {
		t.Errorf("store: %v, recorder asked for %+v", err, rec.who)
	}
	bad := []cache.PMStoreRequest{{ID: ctlRecSeconds.ID, Inst: cache.InstNone, Value: cache.U32Value(cache.InstNone, 0)}}
	if err := r.CheckPMStore(bad); !errors.Is(err, cache.ErrOutOfRange) {
		t.Errorf("check of 0 seconds: %v", err)
	}
	if err := r.CheckPMStore(storeReq(ctlInterval.ID, cache.InstNone, -1)); !errors.Is(err, cache.ErrNegative) {
		t.Errorf("check of a negative interval: %v", err)
	}
	if len(rec.who) != 1 {
		t.Errorf("checks started recordings: %+v", rec.who)
	}
}
