package kernel

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
)

// Helpers shared by the collectors that parse /proc and /sys text
// themselves (stat, diskstats, net/dev, snmp, vmstat, sysfs attributes).

// ReadFileInto reads a whole /proc or /sys file into buf (grown as needed).
// It uses the raw syscalls: os.Open would also try to register each fd
// with the runtime's poller (an extra epoll_ctl per file that always
// fails for these files) and wrap it in an os.File, which at a few dozen
// files a second was a fifth of a collector's cost.
func ReadFileInto(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf = roomForFirstRead(buf)
	for {
		if len(buf) >= MaxFileSize {
			return buf[:0], &fs.PathError{Op: "read", Path: path, Err: ErrTooBig}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// firstRead is the least a whole-file read asks for at once. A numeric
// sysctl file (/proc/sys/fs/file-nr, dentry-state) gives its text to the
// first read only: a read from a later offset ends the file, so a text
// read 8 bytes at a time would stop at "561\t0\t24" where the kernel
// wrote "561\t0\t2466160\n". Its texts are far below a page.
const firstRead = 4096

// roomForFirstRead is buf emptied, with room for firstRead bytes.
func roomForFirstRead(buf []byte) []byte {
	if cap(buf) < firstRead {
		return make([]byte, 0, firstRead)
	}
	return buf[:0]
}

// MaxFileSize bounds what is read of one /proc or /sys file: far above
// any file the collectors read (the largest, /proc/net/netstat or a big
// host's diskstats, are tens to hundreds of KB), low enough that a file
// that never ends (a device node given as a root) cannot eat the memory.
const MaxFileSize = 16 << 20

// ErrTooBig is returned for a file longer than MaxFileSize.
var ErrTooBig = errors.New("file larger than 16 MiB")

// ReadFile reads a whole /proc or /sys file (see ReadFileInto).
func ReadFile(path string) ([]byte, error) {
	return ReadFileInto(path, make([]byte, 0, 4096))
}

// nextLine returns the first line of b (without its newline) and the rest.
func nextLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// nextField returns the next space-separated field and the rest.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	if i == j {
		return nil, nil
	}
	return b[i:j], b[j:]
}

// parseUint reads a decimal without allocating; false on anything else.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	if len(b) < 20 {
		// Nineteen digits cannot overflow: no check per digit.
		if v, n := plainDigits(b); n == len(b) {
			return v, true
		}
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// plainDigits reads the decimal digits b starts with, at most 19 (which
// cannot overflow): their value and how many there were. The one-pass
// readers use it and leave anything longer or odd to parseUint.
func plainDigits(b []byte) (v uint64, n int) {
	for n < len(b) && n < 19 && b[n]-'0' <= 9 {
		v = v*10 + uint64(b[n]-'0')
		n++
	}
	return v, n
}

// ParseDecimal is parseUint, also for a number written with more leading
// zeros than parseUint's twenty digits allow: strconv.ParseUint(s, 10, 64)
// without allocating.
func ParseDecimal(b []byte) (uint64, bool) {
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	return parseUint(b)
}
