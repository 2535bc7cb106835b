package cache

import "errors"

// Errors a store (a pmstore of a control metric) can fail with. The wire
// layer maps each to its PM_ERR_* code.
var (
	ErrUnknownMetric = errors.New("no such metric")
	ErrReadOnly      = errors.New("metric is read-only")
	ErrNoInstance    = errors.New("no such instance")
	ErrNegative      = errors.New("value must not be negative")
	ErrOutOfRange    = errors.New("value outside the allowed range")
	ErrBadType       = errors.New("value has the wrong type")
	ErrBusy          = errors.New("busy: try again later")
)

// PMStoreRequest is one value a client asks to store.
type PMStoreRequest struct {
	ID    MetricID
	Inst  uint32
	Value Value
}

// PMStorer applies pmstores. It checks every request before it applies any, so a
// refused store changes nothing.
type PMStorer interface {
	PMStore(reqs []PMStoreRequest) error
}
