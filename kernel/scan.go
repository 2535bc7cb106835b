package kernel

import (
	"bytes"
	"io/fs"
	"syscall"
)

// ScanChunk is how much of a file ScanLines reads at once: socket tables
// (/proc/net/tcp, unix) grow with the connections a host holds, 150 bytes a
// line, and a busy server's would not fit MaxFileSize; streaming them keeps
// a sample's memory at one chunk whatever the table's length.
const ScanChunk = 64 << 10

// ScanLines reads the file from its start and calls line for every line
// (without its newline), reading ScanChunk bytes at a time into buf, which
// it returns for reuse. A single line longer than MaxFileSize is an error.
// Each read continues where the last ended, so the kernel's seq_file
// generates the table once.
func (f *File) ScanLines(buf []byte, line func([]byte)) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fd, err := f.scanFD()
	if err != nil {
		return buf[:0], err
	}
	if !f.keep {
		defer syscall.Close(fd)
	}
	if cap(buf) < ScanChunk {
		buf = make([]byte, 0, ScanChunk)
	}
	buf = buf[:0]
	for off := int64(0); ; {
		if len(buf) == cap(buf) {
			if len(buf) >= MaxFileSize {
				return buf[:0], &fs.PathError{Op: "read", Path: f.Path, Err: ErrTooBig}
			}
			buf = append(buf, 0)[:len(buf)] // one line fills the buffer: grow it
		}
		n, err := f.readChunk(fd, buf[len(buf):cap(buf)], off)
		if err != nil {
			f.dropFD()
			return buf[:0], &fs.PathError{Op: "read", Path: f.Path, Err: err}
		}
		if n == 0 {
			if len(buf) > 0 {
				line(buf)
			}
			return buf[:0], nil
		}
		off += int64(n)
		buf = buf[:len(buf)+n]
		end := bytes.LastIndexByte(buf, '\n')
		if end < 0 {
			continue
		}
		for rest := buf[:end+1]; len(rest) > 0; {
			var l []byte
			l, rest = nextLine(rest)
			line(l)
		}
		buf = buf[:copy(buf, buf[end+1:])]
	}
}

// scanFD is the kept fd on procfs and sysfs, else a fresh one.
func (f *File) scanFD() (int, error) {
	if f.keep && f.fd >= 0 {
		return f.fd, nil
	}
	fd, err := syscall.Open(f.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: f.Path, Err: err}
	}
	if f.keep {
		f.fd = fd
	}
	return fd, nil
}

// readChunk reads at off from a kept fd, and on from where the last read
// ended from a fresh one (a FIFO in a test cannot pread).
func (f *File) readChunk(fd int, p []byte, off int64) (int, error) {
	for {
		var n int
		var err error
		if f.keep {
			n, err = syscall.Pread(fd, p, off)
		} else {
			n, err = syscall.Read(fd, p)
		}
		if err == syscall.EINTR {
			continue
		}
		return n, err
	}
}

// dropFD closes a kept fd after a failed read, so the next sample opens
// the file afresh (a namespace or device that went away).
func (f *File) dropFD() {
	if f.keep && f.fd >= 0 {
		syscall.Close(f.fd)
		f.fd = -1
	}
}
