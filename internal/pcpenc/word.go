package pcpenc

import "encoding/binary"

// AppendU32 appends v big-endian, as every PCP word goes on the wire and
// into an archive.
func AppendU32(dst []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(dst, v) }

// AppendI32 appends v's two's-complement bits big-endian.
func AppendI32(dst []byte, v int32) []byte { return AppendU32(dst, uint32(v)) }
