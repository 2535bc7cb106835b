package pmda

import (
	"encoding/binary"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Credential types and versions.
const (
	credVersion = 1 // CVERSION
	pduVersion  = 2 // PDU_VERSION2
)

// Feature flags a PMDA may set in its CREDS.
const (
	FlagAuth      = 0x0004 // send ATTR PDUs describing clients
	FlagContainer = 0x0040
)

// Creds is the version handshake, sent first by the PMDA, then by pmcd.
type Creds struct {
	From    int32 // the sender's pid
	Version uint8
	Flags   uint16
}

// Decode reads a CREDS PDU and keeps its CVERSION credential.
func (c *Creds) Decode(pdu []byte) error {
	h, err := DecodeHeader(pdu)
	if err != nil {
		return err
	}
	c.From = h.From
	r := newReader(pdu)
	n := r.count(4, "numcreds")
	for i := 0; i < n; i++ {
		w := r.u32("credential")
		if w>>24 == credVersion {
			c.Version = uint8(w >> 16)
			c.Flags = uint16(w)
		}
	}
	if r.err == nil && c.Version == 0 {
		r.fail("no version credential")
	}
	return r.end()
}

// Append writes a CREDS PDU with one CVERSION credential.
func (c *Creds) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeCreds)
	binary.BigEndian.PutUint32(dst[start+8:], uint32(c.From)) // from is our pid here
	dst = pcpenc.AppendU32(dst, 1)
	dst = pcpenc.AppendU32(dst, credVersion<<24|uint32(c.Version)<<16|uint32(c.Flags))
	return finishPDU(dst, start)
}
