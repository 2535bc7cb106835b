package archive

import (
	"encoding/binary"
	"fmt"
	"time"
)

// A test-only reader of archive records, to check that what this package
// writes is what pmlogger writes: each record of a pmlogger archive is
// decoded here and encoded again with the package's functions.

type rd struct {
	b   []byte
	off int
	err error
}

func (r *rd) u32() uint32 {
	if r.err != nil || r.off+4 > len(r.b) {
		r.err = fmt.Errorf("short record at %d", r.off)
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *rd) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		r.err = fmt.Errorf("short record at %d", r.off)
		return nil
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v
}

func (r *rd) time() time.Time {
	sec, usec := r.u32(), r.u32()
	return time.Unix(int64(sec), int64(usec)*1000)
}

// records splits a file's framed records after its log label, checking
// that each trailing length matches the leading one.
func records(file []byte) ([][]byte, error) {
	var out [][]byte
	for off := labelSize; off < len(file); {
		if off+4 > len(file) {
			return nil, fmt.Errorf("truncated at %d", off)
		}
		n := int(binary.BigEndian.Uint32(file[off:]))
		if n < 8 || off+n > len(file) || binary.BigEndian.Uint32(file[off+n-4:]) != uint32(n) {
			return nil, fmt.Errorf("bad framing at %d (length %d)", off, n)
		}
		out = append(out, file[off:off+n])
		off += n
	}
	return out, nil
}

// payload is a record without its framing.
func payload(rec []byte) *rd { return &rd{b: rec[4 : len(rec)-4]} }

func decodeLogLabel(rec []byte) (LogLabel, error) {
	r := payload(rec)
	if r.u32() != magic {
		return LogLabel{}, fmt.Errorf("no log label magic")
	}
	l := LogLabel{PID: int32(r.u32()), Start: r.time(), Vol: int32(r.u32())}
	l.Host, l.TZ = cstring(r.bytes(hostLen)), cstring(r.bytes(tzLen))
	return l, r.err
}

func cstring(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// reencodeMeta decodes one .meta record and encodes it again.
func reencodeMeta(rec []byte, types map[uint32]int32) ([]byte, error) {
	r := payload(rec)
	switch r.u32() {
	case typeDesc:
		d := Desc{PMID: r.u32(), Type: int32(r.u32()), InDom: r.u32(), Sem: int32(r.u32()), Units: r.u32()}
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			d.Names = append(d.Names, string(r.bytes(int(r.u32()))))
		}
		types[d.PMID] = d.Type
		return AppendDesc(nil, d), r.err
	case typeInDom:
		at, indom, n := r.time(), r.u32(), int(r.u32())
		insts := make([]Instance, n)
		for i := range insts {
			insts[i].ID = r.u32()
		}
		offs := make([]int, n)
		for i := range offs {
			offs[i] = int(r.u32())
		}
		names := r.b[r.off:]
		for i := range insts {
			if offs[i] < len(names) {
				insts[i].Name = cstring(names[offs[i]:])
			}
		}
		return AppendInDom(nil, at, indom, insts), r.err
	case typeLabel:
		return reencodeLabels(r)
	case typeText:
		typ, ident := int32(r.u32()), r.u32()
		return AppendText(nil, typ, ident, cstring(r.b[r.off:])), r.err
	}
	return nil, fmt.Errorf("unknown meta record type")
}

func reencodeLabels(r *rd) ([]byte, error) {
	at, typ, ident := r.time(), int32(r.u32()), r.u32()
	var sets []LabelSet
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		set := LabelSet{Inst: r.u32()}
		json := r.bytes(int(r.u32()))
		for k := r.u32(); k > 0 && r.err == nil; k-- {
			e := r.bytes(8)
			if e == nil {
				break
			}
			nameOff, nameLen := int(e[0])<<8|int(e[1]), int(e[2])
			valOff, valLen := int(e[4])<<8|int(e[5]), int(e[6])<<8|int(e[7])
			if nameOff+nameLen > len(json) || valOff+valLen > len(json) {
				return nil, fmt.Errorf("label offsets outside the set")
			}
			set.Labels = append(set.Labels, Label{Name: string(json[nameOff : nameOff+nameLen]),
				Value: string(json[valOff : valOff+valLen]), Optional: e[3]&LabelOptional != 0})
		}
		sets = append(sets, set)
	}
	if r.err != nil {
		return nil, r.err
	}
	return AppendLabels(nil, at, typ, ident, sets)
}

// reencodeResult decodes one pmResult record and encodes it again; the
// padding after each value block is zeroed in the original, as pmlogger
// leaves whatever its buffer held there.
func reencodeResult(rec []byte, types map[uint32]int32) (orig, again []byte, err error) {
	orig = append([]byte(nil), rec...)
	r := payload(rec)
	at, n := r.time(), int(r.u32())
	var sets []ValueSet
	for i := 0; i < n && r.err == nil; i++ {
		s := ValueSet{PMID: r.u32(), Type: types[0]}
		t, known := types[s.PMID]
		if !known {
			return nil, nil, fmt.Errorf("pmid %#x has no descriptor", s.PMID)
		}
		s.Type = t
		nval := int(r.u32())
		valfmt := r.u32()
		for j := 0; j < nval && r.err == nil; j++ {
			v := Value{Inst: r.u32()}
			word := r.u32()
			if valfmt == 0 {
				v.Bits = uint64(word)
			} else if err := readBlock(rec, orig, int(word)*4-resultHeader, &v); err != nil {
				return nil, nil, err
			}
			s.Values = append(s.Values, v)
		}
		sets = append(sets, s)
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	again, err = AppendResult(nil, at, sets)
	return orig, again, err
}

// readBlock reads the value block at byte off of rec into v and zeroes
// its padding in orig.
func readBlock(rec, orig []byte, off int, v *Value) error {
	if off < 0 || off+4 > len(rec) {
		return fmt.Errorf("value block outside the record")
	}
	hdr := binary.BigEndian.Uint32(rec[off:])
	t, n := int32(hdr>>24), int(hdr&0xffffff)
	if n < 4 || off+n > len(rec) {
		return fmt.Errorf("bad value block length %d", n)
	}
	data := rec[off+4 : off+n]
	switch t {
	case Type64, TypeU64, TypeDouble:
		v.Bits = binary.BigEndian.Uint64(data)
	case TypeFloat:
		v.Bits = uint64(binary.BigEndian.Uint32(data))
	case TypeString:
		v.Str = cstring(data)
	default:
		return fmt.Errorf("value block of type %d", t)
	}
	for p := off + n; p%4 != 0; p++ {
		orig[p] = 0
	}
	return nil
}
