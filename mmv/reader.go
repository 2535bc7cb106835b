package mmv

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Reader re-reads one MMV file whole into a buffer it reuses. It reads
// with pread rather than mapping the file: a writer that truncates a
// mapped file makes the next access raise SIGBUS, and catching that needs
// debug.SetPanicOnFault around every access; a copy of a file of a few
// kilobytes each sample costs microseconds and can never fault.
type Reader struct {
	path string
	file *os.File
	max  int64
	buf  []byte
	head []byte // Head's
}

// Open opens path for reading: only a regular file, never through a
// symbolic link (O_NOFOLLOW), and without blocking (O_NONBLOCK), so a FIFO
// or link planted in the directory is refused at once. Anything but a
// regular file is refused before it is opened, as opening a device can
// do something; the open file is checked again, since the path can change
// between the two. Read refuses a file over lim.MaxBytes.
func Open(path string, lim Limits) (*Reader, error) {
	if st, err := os.Lstat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Reader{path: path, file: f, max: lim.MaxBytes}, nil
}

// Head returns the file's first 40 bytes (the header, enough for Stable)
// and its size, without reading the rest: a caller that already holds the
// file's layout for that generation and size need not read it whole.
func (r *Reader) Head() ([]byte, int64, error) {
	size, err := r.file.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, 0, err
	}
	if cap(r.head) < headerSize {
		r.head = make([]byte, headerSize)
	}
	n, err := r.file.ReadAt(r.head[:headerSize], 0)
	if err != nil && err != io.EOF {
		return nil, 0, fmt.Errorf("reading %s: %w", r.path, err)
	}
	return r.head[:n], size, nil
}

// Release gives back the buffer of the last Read: a file refused or not
// in use holds no memory of its size.
func (r *Reader) Release() { r.buf = nil }

// Path is the path the Reader was opened with.
func (r *Reader) Path() string { return r.path }

// Read returns the file's current bytes. They stay valid until the next
// Read, which overwrites them. A file over the limit is an error wrapping
// ErrLimit.
func (r *Reader) Read() ([]byte, error) {
	st, err := r.file.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size > r.max {
		return nil, errAt(ErrLimit, 0, "%s has %d bytes, limit %d", r.path, size, r.max)
	}
	if int64(cap(r.buf)) < size {
		r.buf = make([]byte, size)
	}
	n, err := r.file.ReadAt(r.buf[:size], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading %s: %w", r.path, err)
	}
	return r.buf[:n], nil
}

// Replaced reports whether path no longer names the open file: removed,
// or replaced by a new file as a restarting writer does (libpcp_mmv
// unlinks and creates). The open file keeps its old bytes and generation,
// so the caller checks this on each scan of the directory and reopens.
func (r *Reader) Replaced() bool {
	now, err := os.Lstat(r.path)
	if err != nil {
		return true
	}
	open, err := r.file.Stat()
	return err != nil || !os.SameFile(now, open)
}

// Close closes the file.
func (r *Reader) Close() error { return r.file.Close() }
