package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// ErrorPDU carries a status code: a reply to a request that failed, the
// only reply to a store, or (from pmcd) PM_ERR_NOTCONN when a client left.
type ErrorPDU struct {
	Code Errno
}

// Decode reads an ERROR PDU; pmcd may send the 20-byte extended form.
func (p *ErrorPDU) Decode(pdu []byte) error {
	r := newReader(pdu)
	p.Code = Errno(r.i32("code"))
	if r.err == nil && len(pdu) == HeaderLen+8 {
		r.u32("datum")
	}
	return r.end()
}

// Append writes the 16-byte ERROR PDU that pmcd expects from a PMDA.
func (p *ErrorPDU) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeError)
	dst = pcpenc.AppendI32(dst, int32(p.Code))
	return finishPDU(dst, start)
}
