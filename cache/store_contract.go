package cache

// The store contract between the wire layer and the storers: what a
// store asks, who asks it, and the errors it can fail with. Who may store
// and the PM_ERR code of each error are the wire layer's
// (pmda/store_access.go).

import "errors"

// Errors a store (a pmstore of a control metric) can fail with. The wire
// layer maps each to its PM_ERR_* code (pmda's storeErrno).
var (
	ErrUnknownMetric = errors.New("no such metric")
	ErrReadOnly      = errors.New("metric is read-only")
	ErrNoInstance    = errors.New("no such instance")
	ErrNegative      = errors.New("value must not be negative")
	ErrOutOfRange    = errors.New("value outside the allowed range")
	ErrBadType       = errors.New("value has the wrong type")
	ErrBusy          = errors.New("busy: try again later")
	ErrNotAllowed    = errors.New("the client may not store")
)

// Credentials are who asks for a store, as pmcd describes its client: the
// user and primary group of a local client. Known is false when pmcd said
// nothing (a remote client, a debugger that sends no attributes).
type Credentials struct {
	UID, GID uint32
	Known    bool
}

// PMStoreRequest is one value a client asks to store.
type PMStoreRequest struct {
	ID    MetricID
	Inst  uint32
	Value Value
	Who   Credentials // the client asking, the same for every request of a store
}

// PMStorer applies pmstores. It checks every request before it applies any, so a
// refused store changes nothing.
type PMStorer interface {
	PMStore(reqs []PMStoreRequest) error
}

// PMStoreChecker is a PMStorer that can check requests without applying
// them: the wire layer checks a store's values first and who asks second,
// so a malformed store is refused for what it is whoever sends it.
type PMStoreChecker interface {
	CheckPMStore(reqs []PMStoreRequest) error
}
