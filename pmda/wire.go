package pmda

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every body decoding error.
var ErrMalformed = errors.New("malformed PDU")

// reader walks a PDU body with bounds checks: every read that would pass the
// end sets a sticky error instead of panicking, so decoders check once.
type reader struct {
	b   []byte
	off int
	err error
}

func newReader(pdu []byte) *reader { return &reader{b: pdu, off: HeaderLen} }

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s at offset %d of %d", ErrMalformed, what, r.off, len(r.b))
	}
}

func (r *reader) u32(what string) uint32 {
	if r.err != nil || len(r.b)-r.off < 4 {
		r.fail(what)
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) i32(what string) int32 { return int32(r.u32(what)) }

// bytes returns n bytes and skips their padding to four.
func (r *reader) bytes(n int, what string) []byte {
	if r.err != nil || n < 0 || len(r.b)-r.off < n {
		r.fail(what)
		return nil
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	r.off += roundup4(n) - n
	if r.off > len(r.b) {
		r.fail(what + " padding")
	}
	return v
}

// count reads a non-negative count of items of itemSize bytes each and checks
// that they fit in what is left, so no allocation is ever sized by the peer.
func (r *reader) count(itemSize int, what string) int {
	n := r.i32(what)
	if r.err != nil {
		return 0
	}
	if n < 0 || int(n) > (len(r.b)-r.off)/itemSize {
		r.fail(fmt.Sprintf("%s %d", what, n))
		return 0
	}
	return int(n)
}

// end checks that the body was consumed exactly.
func (r *reader) end() error {
	if r.err == nil && r.off != len(r.b) {
		r.fail("trailing bytes")
	}
	return r.err
}
