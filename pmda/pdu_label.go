package pmda

import "fmt"

// Label types (PM_LABEL_*), also ORed into each label's flags.
const (
	LabelContext   = 0x01
	LabelDomain    = 0x02
	LabelInDom     = 0x04
	LabelCluster   = 0x08
	LabelItem      = 0x10
	LabelInstances = 0x20
	labelOptional  = 0x80
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
	dst = appendU32(dst, q.Ident)
	dst = appendI32(dst, q.Type)
	return finishPDU(dst, start)
}

// Label is one name and its raw JSON value text (a string keeps its quotes).
type Label struct {
	Name     string
	Value    string
	Optional bool
}

// LabelSet is the labels of one instance (InstNull outside INSTANCES).
// Labels must be sorted by name with no duplicates, as PCP requires.
type LabelSet struct {
	Inst   uint32
	Labels []Label
}

// AppendLabel writes a LABEL reply echoing the request's ident and type.
// Every JSON offset is from the start of the PDU; label offsets are relative
// to their set's JSON. The PDU is not padded: len ends at the last JSON byte.
func AppendLabel(dst []byte, ident uint32, typ int32, sets []LabelSet) ([]byte, error) {
	dst, start := beginPDU(dst, TypeLabel)
	dst = appendU32(dst, ident)
	dst = appendI32(dst, typ)
	dst = appendU32(dst, 0)
	dst = appendI32(dst, int32(len(sets)))
	jsonOff := len(dst) - start
	for _, s := range sets {
		jsonOff += 16 + 8*len(s.Labels)
	}
	var jsonAll []byte
	for _, s := range sets {
		json, index, err := labelJSON(s.Labels, typ)
		if err != nil {
			return dst[:start], err
		}
		dst = appendU32(dst, s.Inst)
		dst = appendI32(dst, int32(len(s.Labels)))
		dst = appendI32(dst, int32(jsonOff+len(jsonAll)))
		dst = appendI32(dst, int32(len(json)))
		dst = append(dst, index...)
		jsonAll = append(jsonAll, json...)
	}
	dst = append(dst, jsonAll...)
	return finishPDU(dst, start), nil
}

// labelJSON builds {"a":1,"b":"x"} and the 8-byte index entry of each label.
func labelJSON(labels []Label, typ int32) (json, index []byte, err error) {
	if len(labels) == 0 {
		return nil, nil, nil
	}
	json = append(json, '{')
	for i, l := range labels {
		if i > 0 {
			json = append(json, ',')
		}
		if len(l.Name) >= 255 || len(l.Value) >= 0xffff {
			return nil, nil, fmt.Errorf("label %q too long", l.Name)
		}
		nameOff := len(json) + 1
		json = append(json, '"')
		json = append(json, l.Name...)
		json = append(json, '"', ':')
		valueOff := len(json)
		json = append(json, l.Value...)
		flags := byte(typ)
		if l.Optional {
			flags |= labelOptional
		}
		index = append(index, byte(nameOff>>8), byte(nameOff), byte(len(l.Name)), flags,
			byte(valueOff>>8), byte(valueOff), byte(len(l.Value)>>8), byte(len(l.Value)))
	}
	json = append(json, '}')
	if len(json) >= 0xffff {
		return nil, nil, fmt.Errorf("label set too long")
	}
	return json, index, nil
}
