package archive

import (
	"encoding/binary"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Record types in the .meta file (TYPE_* of libpcp's logging code).
const (
	typeDesc  = 1
	typeInDom = 2
	typeLabel = 3
	typeText  = 4
)

// magic tags the log label: PM_LOG_MAGIC with format version 2.
const magic = 0x50052602

// appendTime writes a timestamp as pcp-archive(5) has it: seconds and
// microseconds past the epoch, 32 bits each.
func appendTime(dst []byte, t time.Time) []byte {
	dst = pcpenc.AppendU32(dst, uint32(t.Unix()))
	return pcpenc.AppendU32(dst, uint32(t.Nanosecond()/1000))
}

// beginRecord reserves a record's leading length; finishRecord fills it
// and appends the trailing copy.
func beginRecord(dst []byte) ([]byte, int) { return append(dst, 0, 0, 0, 0), len(dst) }

func finishRecord(dst []byte, start int) []byte {
	n := uint32(len(dst) - start + 4)
	binary.BigEndian.PutUint32(dst[start:], n)
	return pcpenc.AppendU32(dst, n)
}
