package kernel

import (
	"bytes"
	"strconv"
	"syscall"
	"unsafe"
)

// AttrLine is an attribute's first line without surrounding white space;
// false when that is empty.
func AttrLine(data []byte) ([]byte, bool) {
	text, _ := nextLine(data)
	text = bytes.TrimSpace(text)
	return text, len(text) > 0
}

// OpenAt opens path (NUL-terminated) relative to dirfd (or absolute) with
// the raw system call: syscall.Openat would copy the path into a new
// NUL-terminated string on every call.
func OpenAt(dirfd int, path []byte, flags int) (int, bool) {
	if len(path) == 0 || path[len(path)-1] != 0 {
		return -1, false // the kernel would read past the slice
	}
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd),
			uintptr(unsafe.Pointer(&path[0])), uintptr(flags|syscall.O_CLOEXEC), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		return int(fd), errno == 0
	}
}

// ParseSpeed reads the speed attribute in Mbit/s: a positive decimal that
// fits an int64, optionally with a plus sign. Zero, negative (-1 is
// SPEED_UNKNOWN) and unreadable speeds are no value.
func ParseSpeed(t []byte) (uint64, bool) {
	if len(t) > 0 && t[0] == '+' {
		t = t[1:]
	}
	v, ok := ParseDecimal(t)
	return v, ok && v > 0 && v <= 1<<63-1
}

// ParseFlags reads the flags attribute, which the kernel prints as "%#x"
// ("0x1003"). Anything else is read as strconv does with base 0, allocating
// only for such text.
func ParseFlags(t []byte) (uint64, bool) {
	if len(t) > 2 && len(t) <= 18 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		var v uint64
		for _, c := range t[2:] {
			switch {
			case c >= '0' && c <= '9':
				v = v<<4 | uint64(c-'0')
			case c >= 'a' && c <= 'f':
				v = v<<4 | uint64(c-'a'+10)
			case c >= 'A' && c <= 'F':
				v = v<<4 | uint64(c-'A'+10)
			default:
				return parseFlagsSlow(t)
			}
		}
		return v, true
	}
	return parseFlagsSlow(t)
}

func parseFlagsSlow(t []byte) (uint64, bool) {
	v, err := strconv.ParseUint(string(t), 0, 64)
	return v, err == nil
}
