package mmv

import (
	"bytes"
	"encoding/binary"
)

// u32 and u64 read a native-endian word at off, ok=false if it does not fit.
func u32(data []byte, off int64) (uint32, bool) {
	if off < 0 || off > int64(len(data))-4 {
		return 0, false
	}
	return binary.NativeEndian.Uint32(data[off:]), true
}

func u64(data []byte, off int64) (uint64, bool) {
	if off < 0 || off > int64(len(data))-8 {
		return 0, false
	}
	return binary.NativeEndian.Uint64(data[off:]), true
}

// field returns the n bytes at off, ok=false if they do not fit.
func field(data []byte, off, n int64) ([]byte, bool) {
	if off < 0 || n < 0 || off > int64(len(data)) || n > int64(len(data))-off {
		return nil, false
	}
	return data[off : off+n], true
}

// cstring is the text before the first NUL of b, ok=false without a NUL.
func cstring(b []byte) ([]byte, bool) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, false
	}
	return b[:i], true
}

// span checks that count records of size bytes from off lie inside a
// file of n bytes and returns where they end; it never overflows.
func span(n int64, off uint64, count, size int64) (int64, bool) {
	if off > uint64(n) || count < 0 {
		return 0, false
	}
	left := n - int64(off)
	if count > left/size {
		return 0, false
	}
	return int64(off) + count*size, true
}
