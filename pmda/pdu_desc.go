package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// DescReq asks for one metric's descriptor.
type DescReq struct {
	PMID uint32
}

// Decode reads a DESC_REQ, which must be exactly 16 bytes.
func (d *DescReq) Decode(pdu []byte) error {
	r := newReader(pdu)
	d.PMID = r.u32("pmid")
	return r.end()
}

// Append writes a DESC_REQ (tests and the benchmark driver).
func (d *DescReq) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeDescReq)
	return finishPDU(pcpenc.AppendU32(dst, d.PMID), start)
}

// Desc is a metric descriptor as it travels: exactly 32 bytes.
type Desc struct {
	PMID  uint32
	Type  int32
	InDom uint32
	Sem   int32
	Units uint32
}

// Append writes a DESC PDU.
func (d *Desc) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeDesc)
	dst = pcpenc.AppendU32(dst, d.PMID)
	dst = pcpenc.AppendI32(dst, d.Type)
	dst = pcpenc.AppendU32(dst, d.InDom)
	dst = pcpenc.AppendI32(dst, d.Sem)
	dst = pcpenc.AppendU32(dst, d.Units)
	return finishPDU(dst, start)
}

// Decode reads a DESC PDU.
func (d *Desc) Decode(pdu []byte) error {
	r := newReader(pdu)
	d.PMID, d.Type, d.InDom = r.u32("pmid"), r.i32("type"), r.u32("indom")
	d.Sem, d.Units = r.i32("sem"), r.u32("units")
	return r.end()
}
