package pcpenc

import (
	"bytes"
	"testing"
)

func TestAppendWords(t *testing.T) {
	prefix := []byte{0xaa}
	for _, c := range []struct {
		name string
		got  []byte
		want []byte
	}{
		{"u32", AppendU32(prefix, 0x01020304), []byte{0xaa, 1, 2, 3, 4}},
		{"u32 max", AppendU32(prefix, 0xffffffff), []byte{0xaa, 0xff, 0xff, 0xff, 0xff}},
		{"i32 positive", AppendI32(prefix, 0x7f000001), []byte{0xaa, 0x7f, 0, 0, 1}},
		{"i32 minus one", AppendI32(prefix, -1), []byte{0xaa, 0xff, 0xff, 0xff, 0xff}},
		{"i32 most negative", AppendI32(prefix, -0x80000000), []byte{0xaa, 0x80, 0, 0, 0}},
		{"u32 onto nothing", AppendU32(nil, 0x3f400000), []byte{0x3f, 0x40, 0, 0}},
	} {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s: % x, want % x", c.name, c.got, c.want)
		}
	}
}
