package mmv

import (
	"math"
	"time"
)

// Each read takes the file's current bytes, which may be newer than those
// Parse saw (values change in place) or shorter (the file shrank), and
// returns ok=false when the value's bytes lie outside them, when the value
// is of another type, or when the file sets FlagSentinel and the value is
// the sentinel (pmdammv then reports no value). No read allocates but
// String.

// bits is the 8-byte value.
func (v *Value) bits(data []byte, t Type) (uint64, bool) {
	if v.Type != t {
		return 0, false
	}
	return u64(data, v.Offset)
}

// integer is the 8-byte value of an integer type, refusing the sentinel.
func (v *Value) integer(data []byte, t Type) (uint64, bool) {
	b, ok := v.bits(data, t)
	if !ok || v.sentinel && b == math.MaxUint64 {
		return 0, false
	}
	return b, true
}

// Uint32 reads a TypeU32 value.
func (v *Value) Uint32(data []byte) (uint32, bool) {
	b, ok := v.integer(data, TypeU32)
	return uint32(b), ok
}

// Int32 reads a Type32 value.
func (v *Value) Int32(data []byte) (int32, bool) {
	b, ok := v.integer(data, Type32)
	return int32(uint32(b)), ok
}

// Uint64 reads a TypeU64 value.
func (v *Value) Uint64(data []byte) (uint64, bool) {
	return v.integer(data, TypeU64)
}

// Int64 reads a Type64 value.
func (v *Value) Int64(data []byte) (int64, bool) {
	b, ok := v.integer(data, Type64)
	return int64(b), ok
}

// Float reads a TypeFloat value.
func (v *Value) Float(data []byte) (float32, bool) {
	b, ok := v.bits(data, TypeFloat)
	f := math.Float32frombits(uint32(b))
	if !ok || v.sentinel && f != f {
		return 0, false
	}
	return f, true
}

// Double reads a TypeDouble value.
func (v *Value) Double(data []byte) (float64, bool) {
	b, ok := v.bits(data, TypeDouble)
	f := math.Float64frombits(b)
	if !ok || v.sentinel && f != f {
		return 0, false
	}
	return f, true
}

// Elapsed reads a TypeElapsed value in microseconds at now. The value
// accumulates the microseconds of finished intervals; while an interval
// runs the extra word holds minus its start (microseconds since the Unix
// epoch), so the running part, now minus the start, is added as pmdammv
// adds it.
func (v *Value) Elapsed(data []byte, now time.Time) (int64, bool) {
	acc, ok := v.integer(data, TypeElapsed)
	if !ok {
		return 0, false
	}
	extra, ok := u64(data, v.Offset+8)
	if !ok {
		return 0, false
	}
	if start := int64(extra); start < 0 {
		return int64(acc) + now.UnixMicro() + start, true
	}
	return int64(acc), true
}

// AppendString appends a TypeString value's text to dst. The text ends at
// the first NUL of its 256-byte slot; a slot without one (a write in
// progress or damage) reads as ok=false.
func (v *Value) AppendString(dst, data []byte) ([]byte, bool) {
	if v.Type != TypeString {
		return dst, false
	}
	slot, ok := field(data, v.Text, stringSize)
	if !ok {
		return dst, false
	}
	text, ok := cstring(slot)
	if !ok || v.sentinel && len(text) == 0 {
		return dst, false
	}
	return append(dst, text...), true
}

// String reads a TypeString value's text.
func (v *Value) String(data []byte) (string, bool) {
	b, ok := v.AppendString(nil, data)
	return string(b), ok
}
