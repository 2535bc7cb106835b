package archive

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// LogLabel heads each file of an archive; only Vol differs between them.
type LogLabel struct {
	PID   int32
	Start time.Time
	Vol   int32 // volume number; VolMeta or VolIndex for those files
	Host  string
	TZ    string
}

// Volume numbers of the metadata and index files in their labels.
const (
	VolMeta  = -1
	VolIndex = -2
)

// Sizes of the label's fixed-width strings.
const (
	hostLen = 64
	tzLen   = 40
)

// labelSize is the whole framed log label, in bytes.
const labelSize = 4 + 4 + 4 + 8 + 4 + hostLen + tzLen + 4

// AppendLogLabel writes the framed log label. Host and TZ are cut to fit
// their fields, with room for the terminating NUL.
func AppendLogLabel(dst []byte, l LogLabel) []byte {
	dst, start := beginRecord(dst)
	dst = pcpenc.AppendU32(dst, magic)
	dst = pcpenc.AppendI32(dst, l.PID)
	dst = appendTime(dst, l.Start)
	dst = pcpenc.AppendI32(dst, l.Vol)
	dst = appendFixed(dst, l.Host, hostLen)
	dst = appendFixed(dst, l.TZ, tzLen)
	return finishRecord(dst, start)
}

// appendFixed writes s NUL-padded to n bytes, at most n-1 of them s's.
func appendFixed(dst []byte, s string, n int) []byte {
	if len(s) > n-1 {
		s = s[:n-1]
	}
	dst = append(dst, s...)
	for i := len(s); i < n; i++ {
		dst = append(dst, 0)
	}
	return dst
}
