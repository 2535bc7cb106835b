package cache

import "math"

// Value is one instance's value, held ready to encode. The metric's Type
// (from its Desc) says how Bits is read: integers as themselves (sign
// extended for signed types), FLOAT and DOUBLE as IEEE-754 bits, STRING in
// Str. Keeping one flat struct means no interface boxing on the fetch path.
type Value struct {
	Inst uint32
	Bits uint64
	Str  string
}

// Num is a value as a published part holds it: the instance and the bits,
// without Value's string field. A part's values are one array of Nums, half
// the size of Values and free of pointers, so the garbage collector never
// scans them; a STRING value's Bits index the part's texts.
type Num struct {
	Inst uint32
	Bits uint64
}

// U64Value and friends build a Value for the named type.
func U64Value(inst uint32, v uint64) Value { return Value{Inst: inst, Bits: v} }
func I64Value(inst uint32, v int64) Value  { return Value{Inst: inst, Bits: uint64(v)} }
func U32Value(inst uint32, v uint32) Value { return Value{Inst: inst, Bits: uint64(v)} }
func I32Value(inst uint32, v int32) Value  { return Value{Inst: inst, Bits: uint64(int64(v))} }
func DoubleValue(inst uint32, v float64) Value {
	return Value{Inst: inst, Bits: math.Float64bits(v)}
}
func FloatValue(inst uint32, v float32) Value {
	return Value{Inst: inst, Bits: uint64(math.Float32bits(v))}
}
func StringValue(inst uint32, s string) Value { return Value{Inst: inst, Str: s} }

// Double and Float read Bits back as floating point.
func (v Value) Double() float64 { return math.Float64frombits(v.Bits) }
func (v Value) Float() float32  { return math.Float32frombits(uint32(v.Bits)) }
