package pmda

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Stores of pmdaproc's process controls (cache.ProcControl). pmdaproc
// lets every client pmcd named a user for set its own view (perclient):
// the store changes what that client alone sees. The default of every
// client (all.threads) changes what the others see, so the agent's own
// rule (StoreAccess) decides who may store it. As everywhere, a store's
// values are checked before who asks.

// controlStore is one checked store of a control.
type controlStore struct {
	kind  cache.ProcControl
	value cache.Value
}

// storesControls reports whether a store names a process control.
func (s *Server) storesControls(sets []ResultSet) bool {
	for _, set := range sets {
		if d, ok := s.metricOf(set.PMID); ok && d.Control != cache.ControlNone {
			return true
		}
	}
	return false
}

// storeControls checks and applies a store of process controls. One that
// names another metric too is refused, as pmdaproc refuses a store of
// any other proc metric.
func (s *Server) storeControls(from int32, sets []ResultSet) ([]byte, error) {
	stores := make([]controlStore, 0, len(sets))
	for _, set := range sets {
		st, err := s.checkControlValue(set)
		if err != nil {
			return nil, err
		}
		stores = append(stores, st)
	}
	who := s.creds.credentials(from)
	for _, st := range stores {
		if err := s.checkControlStorer(from, who, st.kind); err != nil {
			return nil, err
		}
	}
	for _, st := range stores {
		s.applyControl(from, st)
	}
	return (&ErrorPDU{Code: 0}).Append(s.out[:0]), nil
}

// checkControlValue checks one set of a control store: one value, 0 or 1
// for the threads, a path that is not empty for the cgroup.
func (s *Server) checkControlValue(set ResultSet) (controlStore, error) {
	d, ok := s.metricOf(set.PMID)
	switch {
	case !ok:
		return controlStore{}, ErrPMID
	case d.Control == cache.ControlNone:
		return controlStore{}, ErrPermission
	case set.NumVal != 1 || len(set.Values) != 1:
		return controlStore{}, ErrInst
	}
	v, err := storeValue(d.Type, set.ValFmt, set.Values[0])
	if err != nil {
		return controlStore{}, err
	}
	if d.Control == cache.ControlClientCgroups && v.Str == "" ||
		d.Control != cache.ControlClientCgroups && v.Bits > 1 {
		return controlStore{}, ErrBadStore
	}
	return controlStore{kind: d.Control, value: v}, nil
}

// checkControlStorer refuses a client that may not store a control: one
// pmcd named no user for its own settings (it has no context of its own
// to keep them in), one the agent's rule refuses for the default.
func (s *Server) checkControlStorer(from int32, who cache.Credentials, kind cache.ProcControl) error {
	switch {
	case s.cfg.Controls == nil:
		return ErrPermission
	case kind != cache.ControlAllThreads && !who.Known:
		return ErrNoContext
	case kind == cache.ControlAllThreads && s.cfg.StoreAccess != nil && !s.cfg.StoreAccess.Allows(who):
		s.refusals.note(s.cfg.Log, s.cfg.Now(), from, who)
		return ErrPermission
	}
	return nil
}

// applyControl applies one checked control store.
func (s *Server) applyControl(from int32, st controlStore) {
	on := st.value.Bits == 1
	switch st.kind {
	case cache.ControlAllThreads:
		s.cfg.Controls.SetAllThreads(on)
	case cache.ControlClientThreads:
		s.cfg.Controls.SetThreads(from, on)
	case cache.ControlClientCgroups:
		s.cfg.Controls.SetCgroup(from, st.value.Str)
	}
	s.cfg.Log.Info().Int32("from", from).Uint8("control", uint8(st.kind)).Uint64("value", st.value.Bits).
		Str("cgroup", st.value.Str).Msg("process control stored")
}
