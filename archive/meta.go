package archive

import (
	"fmt"
	"time"
)

// Desc is a metric's descriptor and its names, as pmDesc holds them.
type Desc struct {
	PMID  uint32
	Type  int32
	InDom uint32 // PM_INDOM_NULL (0xffffffff) for a singular metric
	Sem   int32
	Units uint32 // bit-packed pmUnits
	Names []string
}

// AppendDesc writes a descriptor record.
func AppendDesc(dst []byte, d Desc) []byte {
	dst, start := beginRecord(dst)
	dst = appendU32(dst, typeDesc)
	dst = appendU32(dst, d.PMID)
	dst = appendI32(dst, d.Type)
	dst = appendU32(dst, d.InDom)
	dst = appendI32(dst, d.Sem)
	dst = appendU32(dst, d.Units)
	dst = appendU32(dst, uint32(len(d.Names)))
	for _, n := range d.Names {
		dst = appendU32(dst, uint32(len(n)))
		dst = append(dst, n...)
	}
	return finishRecord(dst, start)
}

// Instance is one member of an instance domain.
type Instance struct {
	ID   uint32
	Name string
}

// AppendInDom writes the whole instance domain as it is from time at on:
// a reader looks up the instances of a value in the newest such record
// at or before the value's time.
func AppendInDom(dst []byte, at time.Time, indom uint32, insts []Instance) []byte {
	dst, start := beginRecord(dst)
	dst = appendU32(dst, typeInDom)
	dst = appendTime(dst, at)
	dst = appendU32(dst, indom)
	dst = appendU32(dst, uint32(len(insts)))
	for _, x := range insts {
		dst = appendU32(dst, x.ID)
	}
	off := 0
	for _, x := range insts {
		dst = appendU32(dst, uint32(off))
		off += len(x.Name) + 1
	}
	for _, x := range insts {
		dst = append(dst, x.Name...)
		dst = append(dst, 0)
	}
	return finishRecord(dst, start)
}

// Label types, the PM_LABEL_* a label set belongs to (and the low bits of
// each label's flags).
const (
	LabelContext   = 0x01
	LabelDomain    = 0x02
	LabelInDom     = 0x04
	LabelCluster   = 0x08
	LabelItem      = 0x10
	LabelInstances = 0x20
	// LabelOptional marks a label that describes rather than identifies.
	LabelOptional = 0x80
)

// Label is one label: a name, its JSON value text, and whether it is
// optional (its flags are the set's type, plus LabelOptional).
type Label struct {
	Name, Value string
	Optional    bool
}

// LabelSet is the labels of one instance, or of the whole ident (Inst
// PM_IN_NULL, 0xffffffff), sorted by name.
type LabelSet struct {
	Inst   uint32
	Labels []Label
}

// AppendLabels writes the label sets of one ident (a domain, indom,
// cluster or item number, PM_ID_NULL for the context) of type typ, as
// known from time at.
func AppendLabels(dst []byte, at time.Time, typ int32, ident uint32, sets []LabelSet) ([]byte, error) {
	dst, start := beginRecord(dst)
	dst = appendU32(dst, typeLabel)
	dst = appendTime(dst, at)
	dst = appendI32(dst, typ)
	dst = appendU32(dst, ident)
	dst = appendU32(dst, uint32(len(sets)))
	for _, s := range sets {
		json, index, err := labelJSON(s.Labels, typ)
		if err != nil {
			return dst[:start], err
		}
		dst = appendU32(dst, s.Inst)
		dst = appendU32(dst, uint32(len(json)))
		dst = append(dst, json...)
		dst = appendU32(dst, uint32(len(s.Labels)))
		dst = append(dst, index...)
	}
	return finishRecord(dst, start), nil
}

// labelJSON builds a set's JSON object and each label's 8-byte index
// entry: name offset (16 bits) and length (8), flags (8), value offset
// and length (16 each), offsets into the JSON.
func labelJSON(labels []Label, typ int32) (json, index []byte, err error) {
	if len(labels) == 0 {
		return nil, nil, nil
	}
	json = append(json, '{')
	for i, l := range labels {
		if i > 0 {
			json = append(json, ',')
		}
		if len(l.Name) >= 0xff || len(l.Value) >= 0xffff {
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
			flags |= LabelOptional
		}
		index = append(index, byte(nameOff>>8), byte(nameOff), byte(len(l.Name)), flags,
			byte(valueOff>>8), byte(valueOff), byte(len(l.Value)>>8), byte(len(l.Value)))
	}
	json = append(json, '}')
	if len(json) >= 0xffff {
		return nil, nil, fmt.Errorf("label set of %d bytes too long", len(json))
	}
	return json, index, nil
}

// Help text types: one-line or long, of a metric or an instance domain.
const (
	TextOneLine = 0x01
	TextHelp    = 0x02
	TextPMID    = 0x04
	TextInDom   = 0x08
)

// AppendText writes one help text (typ is TextOneLine or TextHelp, ORed
// with TextPMID or TextInDom) with its terminating NUL.
func AppendText(dst []byte, typ int32, ident uint32, text string) []byte {
	dst, start := beginRecord(dst)
	dst = appendU32(dst, typeText)
	dst = appendI32(dst, typ)
	dst = appendU32(dst, ident)
	dst = append(dst, text...)
	dst = append(dst, 0)
	return finishRecord(dst, start)
}
