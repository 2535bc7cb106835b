package pmda

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Attribute keys (PCP_ATTR_*) of the ATTR PDUs pmcd sends about its
// clients; only the user and group decide anything here.
const (
	AttrUserName  = 5
	AttrUserID    = 11
	AttrGroupID   = 12
	AttrProcessID = 14
	AttrContainer = 15
)

// maxAttrValue bounds an attribute's value, as libpcp does (LIMIT_ATTR_PDU).
const maxAttrValue = 4096

// Attr is one attribute of one pmcd client: pmcd sends one ATTR PDU per
// attribute to an agent that set FlagAuth, before the client's next
// request, and never expects a reply.
type Attr struct {
	From  int32  // the client the attribute describes (pmcd's client index)
	Key   uint32 // PCP_ATTR_*
	Value []byte // as sent: pmcd ends a text value with a NUL; aliases the PDU
}

// Decode reads an ATTR PDU. Its length is not padded to four: the value
// runs from offset 16 to the end.
func (a *Attr) Decode(pdu []byte) error {
	h, err := DecodeHeader(pdu)
	if err != nil {
		return err
	}
	r := newReader(pdu)
	a.From, a.Key = h.From, r.u32("attribute")
	if r.err != nil {
		return r.err
	}
	if n := len(pdu) - r.off; n >= maxAttrValue {
		r.fail(fmt.Sprintf("attribute value of %d bytes", n))
		return r.err
	}
	a.Value = pdu[r.off:]
	return nil
}

// Text is the value up to its first NUL.
func (a *Attr) Text() string {
	v, _, _ := bytes.Cut(a.Value, []byte{0})
	return string(v)
}

// ID reads a user or group id value: decimal digits, then the NUL.
func (a *Attr) ID() (uint32, error) {
	n, err := strconv.ParseUint(a.Text(), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: attribute %d: not an id: %.40q", ErrMalformed, a.Key, a.Value)
	}
	return uint32(n), nil
}

// Append writes an ATTR PDU as pmcd does, the value unpadded (tests and
// the benchmark driver).
func (a *Attr) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeAttr)
	binary.BigEndian.PutUint32(dst[start+8:], uint32(a.From))
	dst = pcpenc.AppendU32(dst, a.Key)
	dst = append(dst, a.Value...)
	return finishPDU(dst, start)
}
