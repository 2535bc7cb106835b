package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// Label types (PM_LABEL_*), also ORed into each label's flags.
const (
	LabelContext   = pcpenc.LabelContext
	LabelDomain    = pcpenc.LabelDomain
	LabelInDom     = pcpenc.LabelInDom
	LabelCluster   = pcpenc.LabelCluster
	LabelItem      = pcpenc.LabelItem
	LabelInstances = pcpenc.LabelInstances
)

// LabelReq asks for the labels of a domain, indom, cluster, item, or of
// every instance of an indom.
type LabelReq struct {
	Ident uint32
	Type  int32
}

// Decode reads a LABEL_REQ, exactly 20 bytes.
func (q *LabelReq) Decode(pdu []byte) error {
	r := newReader(pdu)
	q.Ident, q.Type = r.u32("ident"), r.i32("type")
	return r.end()
}

// Append writes a LABEL_REQ (tests).
func (q *LabelReq) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeLabelReq)
	dst = pcpenc.AppendU32(dst, q.Ident)
	dst = pcpenc.AppendI32(dst, q.Type)
	return finishPDU(dst, start)
}

// Label is one name, its raw JSON value text (a string keeps its quotes),
// and whether it is optional. It is the archive's label too, so both
// encode it the same way.
type Label = pcpenc.Label

// LabelSet is the labels of one instance (InstNull outside INSTANCES).
// Labels must be sorted by name with no duplicates, as PCP requires.
type LabelSet struct {
	Inst   uint32
	Labels []Label
}

// AppendLabel writes a LABEL reply echoing the request's ident and type.
// Every JSON offset is from the start of the PDU; label offsets are relative
// to their set's JSON. The PDU is not padded: len ends at the last JSON byte.
// A set out of order or too long for its index fields is an error.
func AppendLabel(dst []byte, ident uint32, typ int32, sets []LabelSet) ([]byte, error) {
	dst, start := beginPDU(dst, TypeLabel)
	dst = pcpenc.AppendU32(dst, ident)
	dst = pcpenc.AppendI32(dst, typ)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendI32(dst, int32(len(sets)))
	jsonOff := len(dst) - start
	for _, s := range sets {
		jsonOff += 16 + pcpenc.IndexEntryLen*len(s.Labels)
	}
	var jsonAll []byte
	for _, s := range sets {
		json, index, err := pcpenc.LabelJSON(s.Labels, typ)
		if err != nil {
			return dst[:start], err
		}
		dst = pcpenc.AppendU32(dst, s.Inst)
		dst = pcpenc.AppendI32(dst, int32(len(s.Labels)))
		dst = pcpenc.AppendI32(dst, int32(jsonOff+len(jsonAll)))
		dst = pcpenc.AppendI32(dst, int32(len(json)))
		dst = append(dst, index...)
		jsonAll = append(jsonAll, json...)
	}
	dst = append(dst, jsonAll...)
	return finishPDU(dst, start), nil
}
