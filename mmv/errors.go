package mmv

import (
	"errors"
	"fmt"
)

// The kinds of error Parse returns; each error it returns wraps one, so
// errors.Is tells them apart.
var (
	// ErrNotMMV: the bytes do not start with an MMV header.
	ErrNotMMV = errors.New("not an MMV file")
	// ErrVersion: an MMV header of a version other than 1, 2 or 3.
	ErrVersion = errors.New("unsupported MMV version")
	// ErrUnstable: the generation numbers differ or are zero, so the
	// writer has not finished the file; try again at the next sample.
	ErrUnstable = errors.New("MMV generation in flux")
	// ErrLimit: the file is larger or has more records than Limits allow.
	ErrLimit = errors.New("MMV file over limit")
	// ErrFormat: the file breaks the format (bounds, references, names,
	// types, duplicates); it stays unusable until its generation changes.
	ErrFormat = errors.New("malformed MMV file")
)

// Error is a refusal of Parse: what is wrong and at which offset.
type Error struct {
	Kind   error // one of the Err values above
	Offset int64 // where in the file the fault lies
	What   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%v at offset %d: %s", e.Kind, e.Offset, e.What)
}

func (e *Error) Unwrap() error { return e.Kind }

func errAt(kind error, off int64, format string, args ...any) error {
	return &Error{Kind: kind, Offset: off, What: fmt.Sprintf(format, args...)}
}

func formatErr(off int64, format string, args ...any) error {
	return errAt(ErrFormat, off, format, args...)
}
