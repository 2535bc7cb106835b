package kernel

import (
	"fmt"
	"syscall"
	"unsafe"
)

// PIDLister lists the process directories of a /proc tree. It keeps one
// buffer for the directory's records and reads the names in place, so a
// listing allocates only the path of its open, however many processes
// the host has.
type PIDLister struct {
	Root string
	buf  []byte
}

// pidDirentBuf is the getdents buffer: a record is about 24 bytes, so one
// call returns some 1,300 processes.
const pidDirentBuf = 32 << 10

// List appends the PIDs under Root to into[:0], in the directory's order.
// Names that are not decimal numbers (self, net, sys, ...) are skipped.
func (l *PIDLister) List(into []int32) ([]int32, error) {
	into = into[:0]
	fd, err := syscall.Open(l.Root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return into, fmt.Errorf("listing processes: %w", err)
	}
	defer syscall.Close(fd)
	if l.buf == nil {
		l.buf = make([]byte, pidDirentBuf)
	}
	for {
		n, err := syscall.Getdents(fd, l.buf)
		if err != nil {
			return into, fmt.Errorf("listing processes in %s: %w", l.Root, err)
		}
		if n <= 0 {
			return into, nil
		}
		into = appendPIDs(into, l.buf[:n])
	}
}

// appendPIDs reads linux_dirent64 records: ino u64, off i64, reclen u16,
// type u8, then the NUL-terminated name.
func appendPIDs(into []int32, b []byte) []int32 {
	for len(b) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen < 19 || reclen > len(b) {
			return into
		}
		if pid, ok := direntPID(b[19:reclen]); ok {
			into = append(into, pid)
		}
		b = b[reclen:]
	}
	return into
}

// direntPID reads a NUL-terminated decimal name that fits a PID.
func direntPID(name []byte) (int32, bool) {
	var v int64
	n := 0
	for _, c := range name {
		if c == 0 {
			break
		}
		if c < '0' || c > '9' || v > 1<<31/10 {
			return 0, false
		}
		v = v*10 + int64(c-'0')
		n++
	}
	if n == 0 || v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}
