package archive

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
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
	dst = pcpenc.AppendU32(dst, typeDesc)
	dst = pcpenc.AppendU32(dst, d.PMID)
	dst = pcpenc.AppendI32(dst, d.Type)
	dst = pcpenc.AppendU32(dst, d.InDom)
	dst = pcpenc.AppendI32(dst, d.Sem)
	dst = pcpenc.AppendU32(dst, d.Units)
	dst = pcpenc.AppendU32(dst, uint32(len(d.Names)))
	for _, n := range d.Names {
		dst = pcpenc.AppendU32(dst, uint32(len(n)))
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
	dst = pcpenc.AppendU32(dst, typeInDom)
	dst = appendTime(dst, at)
	dst = pcpenc.AppendU32(dst, indom)
	dst = pcpenc.AppendU32(dst, uint32(len(insts)))
	for _, x := range insts {
		dst = pcpenc.AppendU32(dst, x.ID)
	}
	off := 0
	for _, x := range insts {
		dst = pcpenc.AppendU32(dst, uint32(off))
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
	LabelContext   = pcpenc.LabelContext
	LabelDomain    = pcpenc.LabelDomain
	LabelInDom     = pcpenc.LabelInDom
	LabelCluster   = pcpenc.LabelCluster
	LabelItem      = pcpenc.LabelItem
	LabelInstances = pcpenc.LabelInstances
	// LabelOptional marks a label that describes rather than identifies.
	LabelOptional = pcpenc.LabelOptional
)

// Label is one label: a name, its JSON value text, and whether it is
// optional (its flags are the set's type, plus LabelOptional). It is the
// PDU wire's label too, so both encode it the same way.
type Label = pcpenc.Label

// LabelSet is the labels of one instance, or of the whole ident (Inst
// PM_IN_NULL, 0xffffffff), sorted by name with no duplicates.
type LabelSet struct {
	Inst   uint32
	Labels []Label
}

// AppendLabels writes the label sets of one ident (a domain, indom,
// cluster or item number, PM_ID_NULL for the context) of type typ, as
// known from time at. A set out of order or too long for its index
// fields is an error, and dst is returned as it was.
func AppendLabels(dst []byte, at time.Time, typ int32, ident uint32, sets []LabelSet) ([]byte, error) {
	dst, start := beginRecord(dst)
	dst = pcpenc.AppendU32(dst, typeLabel)
	dst = appendTime(dst, at)
	dst = pcpenc.AppendI32(dst, typ)
	dst = pcpenc.AppendU32(dst, ident)
	dst = pcpenc.AppendU32(dst, uint32(len(sets)))
	for _, s := range sets {
		json, index, err := pcpenc.LabelJSON(s.Labels, typ)
		if err != nil {
			return dst[:start], err
		}
		dst = pcpenc.AppendU32(dst, s.Inst)
		dst = pcpenc.AppendU32(dst, uint32(len(json)))
		dst = append(dst, json...)
		dst = pcpenc.AppendU32(dst, uint32(len(s.Labels)))
		dst = append(dst, index...)
	}
	return finishRecord(dst, start), nil
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
	dst = pcpenc.AppendU32(dst, typeText)
	dst = pcpenc.AppendI32(dst, typ)
	dst = pcpenc.AppendU32(dst, ident)
	dst = append(dst, text...)
	dst = append(dst, 0)
	return finishRecord(dst, start)
}
