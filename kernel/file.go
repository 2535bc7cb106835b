package kernel

import (
	"errors"
	"io/fs"
	"sync"
	"syscall"
)

// File is one /proc or /sys file a collector reads on every sample.
//
// On a real procfs or sysfs it keeps the file open and re-reads it from
// offset 0 with pread: the kernel regenerates the text on each read from
// the start, and the path lookup an open costs (a fifth of a small file's
// whole sample) is paid once. Anywhere else (fixture trees in tests, a
// FIFO standing in for a stalled source) files may be replaced or be
// unseekable, so every read opens, reads and closes, as ReadFileInto does.
type File struct {
	Path string
	// The fd is kept for the collector's life: the set of files is
	// fixed and small. mu guards keep and fd; a collector samples from
	// one goroutine, so it is uncontended, and it costs nothing to make
	// a shared File safe.
	mu   sync.Mutex
	keep bool // root is procfs or sysfs: the fd may be kept
	fd   int  // -1 when not open
}

// Filesystem magic numbers (statfs f_type) of the pseudo-filesystems whose
// files can be kept open and re-read.
const (
	procSuperMagic = 0x9fa0
	sysfsMagic     = 0x62656572
)

// NewFile names a file to read each sample; root is the /proc or /sys
// root it lives under, whose filesystem decides whether fds are kept.
func NewFile(root, path string) *File {
	return &File{Path: path, keep: isPseudoFS(root), fd: -1}
}

// NewFileKept is NewFile, keeping the fd whatever the filesystem when
// always is set: for a tree of plain files that stands in for /proc and
// /sys (a generated large host), rewritten in place and never replaced,
// so that reading it costs what reading the real files costs.
func NewFileKept(root, path string, always bool) *File {
	if always {
		return &File{Path: path, keep: true, fd: -1}
	}
	return NewFile(root, path)
}

// isPseudoFS reports whether dir is on procfs or sysfs.
func isPseudoFS(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	return st.Type == procSuperMagic || st.Type == sysfsMagic
}

// Read returns the whole file in buf (grown as needed).
func (f *File) Read(buf []byte) ([]byte, error) {
	return f.read(buf, PreadAll)
}

// ReadAttr is Read for a sysfs attribute. The kernel makes an attribute's
// whole text in one go and never more than a page, so a read that returns
// less than the buffer holds is all of it, and the read past the end that
// Read makes to see end of file is saved: one system call per attribute,
// which counts on hosts with thousands of interfaces. Not for procfs,
// whose seq_file texts come a buffer at a time.
func (f *File) ReadAttr(buf []byte) ([]byte, error) {
	return f.read(buf, preadAttr)
}

func (f *File) read(buf []byte, pread func(int, []byte) ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.keep {
		return ReadFileInto(f.Path, buf)
	}
	if f.fd < 0 {
		fd, err := syscall.Open(f.Path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return buf[:0], &fs.PathError{Op: "open", Path: f.Path, Err: err}
		}
		f.fd = fd
	}
	buf, err := pread(f.fd, buf)
	if err != nil {
		// A device that went away, or a file that cannot be re-read:
		// start afresh next time, and stop keeping an unseekable one.
		syscall.Close(f.fd)
		f.fd = -1
		if errors.Is(err, syscall.ESPIPE) {
			f.keep = false
			return ReadFileInto(f.Path, buf)
		}
		return buf[:0], &fs.PathError{Op: "read", Path: f.Path, Err: err}
	}
	return buf, nil
}

// Close releases a kept fd. Most collectors keep theirs for life; one
// whose files belong to a device closes them when the device goes.
func (f *File) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd >= 0 {
		syscall.Close(f.fd)
		f.fd = -1
	}
}

// attrPage is a sysfs attribute's most (a page) and one byte: a read
// that fills it may have more to come.
const attrPage = 4096 + 1

// preadAttr reads a sysfs attribute from offset 0: one pread when it
// returns less than the buffer holds, PreadAll's loop otherwise.
func preadAttr(fd int, buf []byte) ([]byte, error) {
	if cap(buf) < attrPage {
		buf = make([]byte, 0, attrPage)
	}
	for {
		n, err := syscall.Pread(fd, buf[:cap(buf)], 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], err
		}
		if n < cap(buf) {
			return buf[:n], nil
		}
		return preadFrom(fd, buf[:n])
	}
}

// PreadAll reads fd from offset 0 to its end into buf, a page at least
// in its first read (firstRead).
func PreadAll(fd int, buf []byte) ([]byte, error) {
	return preadFrom(fd, roomForFirstRead(buf))
}

// preadFrom reads on from offset len(buf) to end of file.
func preadFrom(fd int, buf []byte) ([]byte, error) {
	for {
		if len(buf) >= MaxFileSize {
			return buf[:0], ErrTooBig
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Pread(fd, buf[len(buf):cap(buf)], int64(len(buf)))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], err
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
