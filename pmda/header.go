package pmda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Type is a PDU type code.
type Type int32

// PDU types a PMDA meets. The comment gives the body after the 12-byte header.
const (
	TypeError        Type = 0x7000 // code
	TypeResult       Type = 0x7001 // tv_sec tv_usec numpmid {pmid numval [valfmt] {inst value}*}* blocks
	TypeProfile      Type = 0x7002 // ctxid g_state numprof pad {indom state numinst pad}* insts
	TypeFetch        Type = 0x7003 // ctxid unused[2] numpmid pmid*
	TypeDescReq      Type = 0x7004 // pmid
	TypeDesc         Type = 0x7005 // pmid type indom sem units
	TypeInstanceReq  Type = 0x7006 // indom unused[2] inst namelen name
	TypeInstance     Type = 0x7007 // indom numinst {inst namelen name}*
	TypeTextReq      Type = 0x7008 // ident type
	TypeText         Type = 0x7009 // ident buflen text
	TypeControlReq   Type = 0x700a // never sent by pmcd
	TypeCreds        Type = 0x700c // numcreds {type:8 version:8 flags:16}*
	TypePMNSIDs      Type = 0x700d // sts numids pmid*
	TypePMNSNames    Type = 0x700e // nstrbytes numstatus numnames {[status] namelen name}*
	TypePMNSChild    Type = 0x700f // subtype namelen name
	TypePMNSTraverse Type = 0x7010 // subtype namelen name
	TypeAttr         Type = 0x7011 // attr value (not padded)
	TypeLabelReq     Type = 0x7012 // ident type
	TypeLabel        Type = 0x7013 // ident type pad nsets sets json
)

var typeNames = map[Type]string{
	TypeError: "ERROR", TypeResult: "RESULT", TypeProfile: "PROFILE", TypeFetch: "FETCH",
	TypeDescReq: "DESC_REQ", TypeDesc: "DESC", TypeInstanceReq: "INSTANCE_REQ",
	TypeInstance: "INSTANCE", TypeTextReq: "TEXT_REQ", TypeText: "TEXT",
	TypeControlReq: "CONTROL_REQ", TypeCreds: "CREDS", TypePMNSIDs: "PMNS_IDS",
	TypePMNSNames: "PMNS_NAMES", TypePMNSChild: "PMNS_CHILD", TypePMNSTraverse: "PMNS_TRAVERSE",
	TypeAttr: "ATTR", TypeLabelReq: "LABEL_REQ", TypeLabel: "LABEL",
}

func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("PDU(%#x)", int32(t))
}

// HeaderLen is the size of every PDU header: len, type, from.
const HeaderLen = 12

// DefaultMaxLen bounds what we read from pmcd. pmcd forwards client PDUs
// capped at 64 KiB by default (pmcd -L); a store of a long string or a big
// PROFILE stays well under 1 MiB, and nothing the peer says can make us
// allocate more.
const DefaultMaxLen = 1 << 20

// Header is the fixed start of every PDU.
type Header struct {
	Len  int32
	Type Type
	From int32
}

// Framing errors. A PDU that breaks them cannot be answered in step, so the
// connection is closed.
var (
	ErrShortPDU = errors.New("pdu: length below header size")
	ErrLongPDU  = errors.New("pdu: length above limit")
	ErrBadType  = errors.New("pdu: negative type")
)

// DecodeHeader reads a header from the first 12 bytes of b.
func DecodeHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen {
		return Header{}, ErrShortPDU
	}
	h := Header{
		Len:  int32(binary.BigEndian.Uint32(b)),
		Type: Type(int32(binary.BigEndian.Uint32(b[4:]))),
		From: int32(binary.BigEndian.Uint32(b[8:])),
	}
	return h, nil
}

// ReadPDU reads one whole PDU (header included) into buf, growing it as
// needed up to maxLen, and returns the header and the PDU bytes. An EOF
// before the first byte is io.EOF; inside a PDU it is io.ErrUnexpectedEOF.
func ReadPDU(r io.Reader, buf []byte, maxLen int) (Header, []byte, error) {
	if cap(buf) < HeaderLen {
		buf = make([]byte, 0, 4096)
	}
	buf = buf[:HeaderLen]
	if _, err := io.ReadFull(r, buf); err != nil {
		return Header{}, buf, err
	}
	h, _ := DecodeHeader(buf)
	switch {
	case h.Len < HeaderLen:
		return h, buf, fmt.Errorf("%w: %d", ErrShortPDU, h.Len)
	case int(h.Len) > maxLen:
		return h, buf, fmt.Errorf("%w: %d > %d", ErrLongPDU, h.Len, maxLen)
	case h.Type < 0:
		return h, buf, ErrBadType
	}
	if cap(buf) < int(h.Len) {
		nb := make([]byte, h.Len)
		copy(nb, buf)
		buf = nb
	}
	buf = buf[:h.Len]
	if _, err := io.ReadFull(r, buf[HeaderLen:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return h, buf, err
	}
	return h, buf, nil
}

// beginPDU appends a header with a zero length; finishPDU patches it.
func beginPDU(dst []byte, t Type) ([]byte, int) {
	start := len(dst)
	dst = binary.BigEndian.AppendUint32(dst, 0)
	dst = binary.BigEndian.AppendUint32(dst, uint32(t))
	dst = binary.BigEndian.AppendUint32(dst, 0) // from: anonymous, as libpcp_pmda
	return dst, start
}

func finishPDU(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst
}

// pad4 appends zero bytes up to the next multiple of four from start.
func pad4(dst []byte, start int) []byte {
	for (len(dst)-start)%4 != 0 {
		dst = append(dst, 0)
	}
	return dst
}

func roundup4(n int) int { return (n + 3) &^ 3 }
