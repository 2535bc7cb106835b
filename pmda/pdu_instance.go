package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// InstNull is PM_IN_NULL: no instance, or "not looking up by number".
const InstNull = 0xffffffff

// maxNameLen bounds instance and metric names we accept or send.
const maxNameLen = 4096

// InstanceReq asks for a whole instance domain, one instance's name, or one
// name's instance id.
type InstanceReq struct {
	InDom uint32
	Inst  uint32 // InstNull unless looking up by number
	Name  string // empty unless looking up by name
}

// Decode reads an INSTANCE_REQ.
func (q *InstanceReq) Decode(pdu []byte) error {
	r := newReader(pdu)
	q.InDom = r.u32("indom")
	r.u32("unused")
	r.u32("unused")
	q.Inst = r.u32("inst")
	n := r.i32("namelen")
	if r.err == nil && (n < 0 || n > maxNameLen) {
		r.fail("namelen")
	}
	q.Name = string(r.bytes(int(n), "name"))
	return r.end()
}

// Append writes an INSTANCE_REQ (tests and the benchmark driver).
func (q *InstanceReq) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeInstanceReq)
	dst = pcpenc.AppendU32(dst, q.InDom)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendU32(dst, q.Inst)
	dst = appendString(dst, q.Name)
	return finishPDU(dst, start)
}

// InstanceEntry is one instance in an INSTANCE reply.
type InstanceEntry struct {
	Inst uint32
	Name string
}

// AppendInstance writes an INSTANCE reply.
func AppendInstance(dst []byte, indom uint32, entries []InstanceEntry) []byte {
	dst, start := beginPDU(dst, TypeInstance)
	dst = pcpenc.AppendU32(dst, indom)
	dst = pcpenc.AppendI32(dst, int32(len(entries)))
	for _, e := range entries {
		dst = pcpenc.AppendU32(dst, e.Inst)
		dst = appendString(dst, e.Name)
	}
	return finishPDU(dst, start)
}

// DecodeInstance reads an INSTANCE reply (tests and the benchmark driver).
func DecodeInstance(pdu []byte) (uint32, []InstanceEntry, error) {
	r := newReader(pdu)
	indom := r.u32("indom")
	n := r.count(8, "numinst")
	var out []InstanceEntry
	for i := 0; i < n && r.err == nil; i++ {
		e := InstanceEntry{Inst: r.u32("inst")}
		k := r.i32("namelen")
		e.Name = string(r.bytes(int(k), "name"))
		out = append(out, e)
	}
	return indom, out, r.end()
}

// appendString writes a length word, the bytes, and padding to four.
func appendString(dst []byte, s string) []byte {
	dst = pcpenc.AppendI32(dst, int32(len(s)))
	start := len(dst)
	dst = append(dst, s...)
	return pad4(dst, start)
}
