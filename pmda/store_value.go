package pmda

import (
	"encoding/binary"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// storeValue converts one stored value to a cache.Value of type t, refusing
// a value whose encoding does not match the metric's type.
func storeValue(t cache.Type, valfmt int32, v ResultValue) (cache.Value, error) {
	if insitu(t) {
		if valfmt != valfmtInsitu {
			return cache.Value{}, ErrConv
		}
		if t == cache.TypeI32 {
			return cache.I32Value(v.Inst, int32(v.Word)), nil
		}
		return cache.U32Value(v.Inst, v.Word), nil
	}
	if valfmt != valfmtDptr && valfmt != valfmtSptr {
		return cache.Value{}, ErrConv
	}
	if v.VType != t {
		return cache.Value{}, ErrType
	}
	p := v.Payload
	switch t {
	case cache.TypeFloat:
		if len(p) != 4 {
			return cache.Value{}, ErrConv
		}
		return cache.Value{Inst: v.Inst, Bits: uint64(binary.BigEndian.Uint32(p))}, nil
	case cache.TypeString:
		if len(p) == 0 || p[len(p)-1] != 0 {
			return cache.Value{}, ErrConv
		}
		return cache.StringValue(v.Inst, string(p[:len(p)-1])), nil
	case cache.TypeI64, cache.TypeU64, cache.TypeDouble:
		if len(p) != 8 {
			return cache.Value{}, ErrConv
		}
		return cache.Value{Inst: v.Inst, Bits: binary.BigEndian.Uint64(p)}, nil
	}
	return cache.Value{}, ErrType
}
