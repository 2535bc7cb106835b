package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// Text request type bits (PM_TEXT_*).
const (
	TextOneLine = 0x01
	TextHelp    = 0x02
	TextPMID    = 0x04
	TextInDom   = 0x08
)

// TextReq asks for help text of a metric or instance domain.
type TextReq struct {
	Ident uint32
	Type  int32
}

// Decode reads a TEXT_REQ, exactly 20 bytes.
func (q *TextReq) Decode(pdu []byte) error {
	r := newReader(pdu)
	q.Ident, q.Type = r.u32("ident"), r.i32("type")
	return r.end()
}

// Append writes a TEXT_REQ (tests and the benchmark driver).
func (q *TextReq) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeTextReq)
	dst = pcpenc.AppendU32(dst, q.Ident)
	dst = pcpenc.AppendI32(dst, q.Type)
	return finishPDU(dst, start)
}

// AppendText writes a TEXT reply, padded (PCP's newer decoders insist).
func AppendText(dst []byte, ident uint32, text string) []byte {
	dst, start := beginPDU(dst, TypeText)
	dst = pcpenc.AppendU32(dst, ident)
	dst = appendString(dst, text)
	return finishPDU(dst, start)
}

// DecodeText reads a TEXT reply (tests).
func DecodeText(pdu []byte) (uint32, string, error) {
	r := newReader(pdu)
	ident := r.u32("ident")
	n := r.i32("buflen")
	text := string(r.bytes(int(n), "text"))
	return ident, text, r.end()
}
