package pmda

import (
	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

	"encoding/binary"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Value formats in a value set.
const (
	valfmtInsitu = 0 // the value word holds a 32-bit value
	valfmtDptr   = 1 // the value word is a word offset to a value block
	valfmtSptr   = 2 // same on the wire as DPTR
)

// maxBlockLen is the largest vlen a value block header can carry (24 bits).
const maxBlockLen = 0xffffff

// ValueSet is one metric's entry in a RESULT: values, or none (NumErr 0 and
// no values), or an error code for the metric (NumErr < 0).
type ValueSet struct {
	PMID   uint32
	Type   cache.Type
	NumErr Errno // negative: the metric failed with this code
	Values []cache.Value
}

func insitu(t cache.Type) bool { return t == cache.TypeI32 || t == cache.TypeU32 }

// blockLen returns a value's block length (vlen, before padding).
func blockLen(t cache.Type, v *cache.Value) int {
	switch t {
	case cache.TypeFloat:
		return 8
	case cache.TypeString:
		return min(4+len(v.Str)+1, maxBlockLen)
	default:
		return 12
	}
}

// setLen returns the bytes a value set takes before the block area.
func setLen(s *ValueSet) int {
	if s.NumErr < 0 || len(s.Values) == 0 {
		return 8
	}
	return 12 + 8*len(s.Values)
}

// AppendResult writes a RESULT PDU: the sets in the order given, then every
// value block packed right after the last set, each padded to four bytes,
// and the exact length, as pmcd's decoder requires. flags goes in tv_sec,
// which pmcd reads as state-change flags, never as a time.
func AppendResult(dst []byte, flags int32, sets []ValueSet) []byte {
	dst, start := beginPDU(dst, TypeResult)
	dst = pcpenc.AppendI32(dst, flags)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendI32(dst, int32(len(sets)))
	blockOff := len(dst) - start
	for i := range sets {
		blockOff += setLen(&sets[i])
	}
	for i := range sets {
		dst = appendSet(dst, &sets[i], &blockOff)
	}
	for i := range sets {
		s := &sets[i]
		if s.NumErr < 0 || insitu(s.Type) {
			continue
		}
		for j := range s.Values {
			dst = appendBlock(dst, s.Type, &s.Values[j])
		}
	}
	return finishPDU(dst, start)
}

func appendSet(dst []byte, s *ValueSet, blockOff *int) []byte {
	dst = pcpenc.AppendU32(dst, s.PMID)
	if s.NumErr < 0 {
		return pcpenc.AppendI32(dst, int32(s.NumErr))
	}
	dst = pcpenc.AppendI32(dst, int32(len(s.Values)))
	if len(s.Values) == 0 {
		return dst // no valfmt word when numval <= 0
	}
	if insitu(s.Type) {
		dst = pcpenc.AppendU32(dst, valfmtInsitu)
		for _, v := range s.Values {
			dst = pcpenc.AppendU32(dst, v.Inst)
			dst = pcpenc.AppendU32(dst, uint32(v.Bits))
		}
		return dst
	}
	dst = pcpenc.AppendU32(dst, valfmtDptr)
	for j := range s.Values {
		dst = pcpenc.AppendU32(dst, s.Values[j].Inst)
		dst = pcpenc.AppendU32(dst, uint32(*blockOff/4))
		*blockOff += roundup4(blockLen(s.Type, &s.Values[j]))
	}
	return dst
}

func appendBlock(dst []byte, t cache.Type, v *cache.Value) []byte {
	vlen := blockLen(t, v)
	start := len(dst)
	dst = pcpenc.AppendU32(dst, uint32(t)<<24|uint32(vlen))
	switch t {
	case cache.TypeFloat:
		dst = pcpenc.AppendU32(dst, uint32(v.Bits))
	case cache.TypeString:
		dst = append(dst, v.Str[:vlen-5]...)
		dst = append(dst, 0)
	default:
		dst = binary.BigEndian.AppendUint64(dst, v.Bits)
	}
	return pad4(dst, start)
}

// Result is a decoded RESULT: a store request from pmcd, or (in tests and
// the benchmark driver) a PMDA's reply.
type Result struct {
	Flags int32
	Sets  []ResultSet
}

// ResultSet is one decoded value set.
type ResultSet struct {
	PMID   uint32
	NumVal int32
	ValFmt int32
	Values []ResultValue
}

// ResultValue is one decoded value: Word for INSITU, or a block's type and
// payload (a slice of the PDU) for DPTR.
type ResultValue struct {
	Inst    uint32
	Word    uint32
	VType   cache.Type
	Payload []byte
}

// Decode reads a RESULT PDU, checking every set, offset and block.
func (res *Result) Decode(pdu []byte) error {
	r := newReader(pdu)
	res.Flags = r.i32("tv_sec")
	r.u32("tv_usec") // garbage in a store from pmcd
	n := r.count(8, "numpmid")
	res.Sets = res.Sets[:0]
	end := HeaderLen + 12
	for i := 0; i < n && r.err == nil; i++ {
		s := ResultSet{PMID: r.u32("pmid"), NumVal: r.i32("numval")}
		if s.NumVal > 0 {
			s.ValFmt = r.i32("valfmt")
			k := int(s.NumVal)
			if r.err == nil && k > (len(pdu)-r.off)/8 {
				r.fail("numval")
			}
			for j := 0; j < k && r.err == nil; j++ {
				v := ResultValue{Inst: r.u32("inst"), Word: r.u32("value")}
				if s.ValFmt != valfmtInsitu {
					end = max(end, decodeBlock(r, &v))
				}
				s.Values = append(s.Values, v)
			}
		}
		res.Sets = append(res.Sets, s)
	}
	if r.err == nil {
		r.off = max(r.off, end)
	}
	return r.end()
}

// decodeBlock resolves a DPTR value word, returning the block's padded end.
func decodeBlock(r *reader, v *ResultValue) int {
	off := int(v.Word) * 4
	if v.Word > uint32(len(r.b)/4) || off < HeaderLen || off+4 > len(r.b) {
		r.fail("value block offset")
		return 0
	}
	hdr := binary.BigEndian.Uint32(r.b[off:])
	vlen := int(hdr & maxBlockLen)
	if vlen < 4 || off+vlen > len(r.b) {
		r.fail("value block length")
		return 0
	}
	v.VType = cache.Type(hdr >> 24)
	v.Payload = r.b[off+4 : off+vlen]
	return off + roundup4(vlen)
}
