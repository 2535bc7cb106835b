package archive

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Value types (PM_TYPE_*) a value block may hold.
const (
	Type32     = 0
	TypeU32    = 1
	Type64     = 2
	TypeU64    = 3
	TypeFloat  = 4
	TypeDouble = 5
	TypeString = 6
)

// Value is one instance's value of a metric: Bits holds a number (a
// float's or double's IEEE bits), Str a string's text.
type Value struct {
	Inst uint32
	Bits uint64
	Str  string
}

// ValueSet is one metric's values in a result, all of its Type.
type ValueSet struct {
	PMID   uint32
	Type   int32
	Values []Value
}

// insitu reports whether values of type t are stored in the value word
// itself (PM_VAL_INSITU) rather than in a value block (PM_VAL_DPTR).
func insitu(t int32) bool { return t == Type32 || t == TypeU32 }

// resultHeader is the PDU header the value-block offsets count from:
// libpcp stores a result as the PDU it fetched, and an offset is in words
// from the PDU's start, 12 bytes before the timestamp; on disk the record
// starts 4 bytes (its length) before the timestamp.
const resultHeader = 12 - 4

// AppendResult writes one pmResult record: the values of every set, at
// time at. A set without values is left out, as a metric without values
// in a fetch; a result with no set at all is a <mark> record.
func AppendResult(dst []byte, at time.Time, sets []ValueSet) ([]byte, error) {
	rec, _, err := appendResult(dst, nil, at, sets)
	return rec, err
}

// appendResult is AppendResult with a scratch buffer for the value blocks,
// returned for reuse.
func appendResult(dst, blocks []byte, at time.Time, sets []ValueSet) ([]byte, []byte, error) {
	blocks = blocks[:0]
	dst, start := beginRecord(dst)
	dst = appendTime(dst, at)
	n := 0
	for _, s := range sets {
		if len(s.Values) > 0 {
			n++
		}
	}
	dst = pcpenc.AppendU32(dst, uint32(n))
	// The value blocks follow every set: their offsets are known once the
	// sets' size is, so first count it.
	blockAt := len(dst) - start
	for _, s := range sets {
		if len(s.Values) > 0 {
			blockAt += 12 + 8*len(s.Values)
		}
	}
	for _, s := range sets {
		if len(s.Values) == 0 {
			continue
		}
		dst = pcpenc.AppendU32(dst, s.PMID)
		dst = pcpenc.AppendU32(dst, uint32(len(s.Values)))
		if insitu(s.Type) {
			dst = pcpenc.AppendU32(dst, 0)
			for _, v := range s.Values {
				dst = pcpenc.AppendU32(dst, v.Inst)
				dst = pcpenc.AppendU32(dst, uint32(v.Bits))
			}
			continue
		}
		dst = pcpenc.AppendU32(dst, 1)
		for _, v := range s.Values {
			off := blockAt + len(blocks) + resultHeader
			if off/4 > math.MaxInt32 {
				return dst[:start], blocks, fmt.Errorf("result too large")
			}
			dst = pcpenc.AppendU32(dst, v.Inst)
			dst = pcpenc.AppendU32(dst, uint32(off/4))
			var err error
			if blocks, err = appendBlock(blocks, s.Type, v); err != nil {
				return dst[:start], blocks, fmt.Errorf("pmid %#x: %w", s.PMID, err)
			}
		}
	}
	dst = append(dst, blocks...)
	return finishRecord(dst, start), blocks, nil
}

// appendBlock writes a value block: its type (8 bits) and length (24
// bits, header included, padding not), the value, and zeros to the next
// 32-bit boundary.
func appendBlock(dst []byte, t int32, v Value) ([]byte, error) {
	var n int
	switch t {
	case Type64, TypeU64, TypeDouble:
		n = 8
	case TypeFloat:
		n = 4
	case TypeString:
		n = len(v.Str) + 1
	default:
		return dst, fmt.Errorf("no value block for type %d", t)
	}
	n += 4
	if n >= 1<<24 {
		return dst, fmt.Errorf("value of %d bytes too long", n-4)
	}
	dst = pcpenc.AppendU32(dst, uint32(t)<<24|uint32(n))
	switch t {
	case Type64, TypeU64, TypeDouble:
		dst = binary.BigEndian.AppendUint64(dst, v.Bits)
	case TypeFloat:
		dst = pcpenc.AppendU32(dst, uint32(v.Bits))
	default:
		dst = append(append(dst, v.Str...), 0)
	}
	for n%4 != 0 {
		dst = append(dst, 0)
		n++
	}
	return dst, nil
}

// AppendIndex writes one temporal index entry: from time at on, records
// are found at or after these offsets of volume vol and of the .meta.
func AppendIndex(dst []byte, at time.Time, vol int32, metaOff, dataOff int64) []byte {
	dst = appendTime(dst, at)
	dst = pcpenc.AppendI32(dst, vol)
	dst = pcpenc.AppendU32(dst, uint32(metaOff))
	return pcpenc.AppendU32(dst, uint32(dataOff))
}
