package engine

import "errors"

// PartialError is a collector's report that some of its sources failed
// while others gave values: what was set is published, and the failure is
// counted and logged. A collector whose files fail independently (swap's
// vmstat, meminfo and swaps) returns one, so one bad file costs only its
// own metrics.
type PartialError struct{ Err error }

func (e *PartialError) Error() string { return e.Err.Error() }
func (e *PartialError) Unwrap() error { return e.Err }

// isPartial reports whether err is or wraps a PartialError. It is a
// function of its own because the target errors.As is given escapes:
// declared in the sampling path, it was an allocation every sample,
// error or none.
func isPartial(err error) bool {
	if err == nil {
		return false
	}
	var p *PartialError
	return errors.As(err, &p)
}

// Partial wraps err, if any, as a PartialError.
func Partial(err error) error {
	if err == nil {
		return nil
	}
	return &PartialError{Err: err}
}

// PartialOf is the result of a sample that read sources files, errs of
// which failed: nil when none did, a plain error when all did (nothing
// was published), a PartialError otherwise.
func PartialOf(errs []error, sources int) error {
	if len(errs) > 0 && len(errs) >= sources {
		return errors.Join(errs...)
	}
	return Partial(errors.Join(errs...))
}
