package network

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// tcpStates is how many states pmdalinux counts: 1 ESTABLISHED to 11
// CLOSING. The kernel prints no others (a request socket shows as
// SYN_RECV); a state past them is skipped, as pmdalinux skips it.
const tcpStates = 11

// tcpStateCounts are a table's sockets by state, state N at N-1.
type tcpStateCounts [tcpStates]uint64

// tcpScanChunk is the buffer a table streams through: a sample's memory is
// one chunk whatever the table's length, and no line of a sane table
// comes near it.
const tcpScanChunk = 64 << 10

// Why a table is left without values.
var (
	errTCPTooLong  = errors.New("longer than the limit")
	errTCPLongLine = errors.New("a line longer than the read buffer")
	errTCPHeader   = errors.New("no heading line (sl local_address ...)")
)

// tcpScan is the state of one table's scan across chunks.
type tcpScan struct {
	n      *tcpStateCounts
	header bool // the heading line has been seen
	line   int  // lines seen, for errors
	bad    int  // the first line without a state, 0 when none
}

// countTCPStates streams the table at path through buf (returned for
// reuse), counting its sockets by state into n without keeping any line.
// It reads at most limit bytes: a longer table, a line without a state
// or a file that is not a socket table is an error, and n is then not
// to be published. Each read goes on where the last ended, so the kernel
// walks its sockets once.
func countTCPStates(path string, buf []byte, limit int64, n *tcpStateCounts) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if cap(buf) < tcpScanChunk {
		buf = make([]byte, 0, tcpScanChunk)
	}
	s := tcpScan{n: n}
	buf, err = s.stream(fd, buf[:0], limit)
	if err == errTCPTooLong {
		return buf, fmt.Errorf("%s: %w of %d MiB: its counts are left without values", path, err, limit>>20)
	}
	if err != nil {
		return buf, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return buf, nil
}

// stream reads fd to its end, or to limit, through buf.
func (s *tcpScan) stream(fd int, buf []byte, limit int64) ([]byte, error) {
	for read := int64(0); ; {
		if len(buf) == cap(buf) {
			return buf[:0], errTCPLongLine
		}
		k, err := readChunk(fd, buf[len(buf):cap(buf)])
		if err != nil {
			return buf[:0], err
		}
		if k == 0 {
			if len(buf) > 0 {
				s.add(buf) // a last line without its newline
			}
			return buf[:0], s.err()
		}
		if read += int64(k); read > limit {
			return buf[:0], errTCPTooLong
		}
		buf = buf[:len(buf)+k]
		end := bytes.LastIndexByte(buf, '\n')
		if end < 0 {
			continue
		}
		for rest := buf[:end]; ; {
			line, more, found := bytes.Cut(rest, []byte{'\n'})
			s.add(line)
			if !found {
				break
			}
			rest = more
		}
		buf = buf[:copy(buf, buf[end+1:])]
	}
}

// readChunk is one read(2), retried when a signal interrupts it.
func readChunk(fd int, p []byte) (int, error) {
	for {
		k, err := syscall.Read(fd, p)
		if err != syscall.EINTR {
			return k, err
		}
	}
}

// add counts one line: the heading first, then a socket a line with its
// state, the fourth field, in hexadecimal ("0A").
func (s *tcpScan) add(line []byte) {
	s.line++
	if !s.header {
		first, _ := kernel.NextWord(line)
		s.header = string(first) == "sl"
		if !s.header && s.bad == 0 {
			s.bad = s.line
		}
		return
	}
	st, ok := tcpLineState(line)
	switch {
	case !ok:
		if s.bad == 0 {
			s.bad = s.line
		}
	case st >= 1 && st <= tcpStates:
		s.n[st-1]++
	}
}

// err is the scan's verdict once the table has been read.
func (s *tcpScan) err() error {
	switch {
	case s.bad == 1 || !s.header:
		return errTCPHeader
	case s.bad > 0:
		return fmt.Errorf("line %d has no TCP state", s.bad)
	}
	return nil
}

// tcpLineState parses the state of a socket line: "0: 0100007F:0277
// 00000000:0000 0A ...". A state is one or two hexadecimal digits.
func tcpLineState(line []byte) (uint64, bool) {
	var f []byte
	rest := line
	for range 4 {
		f, rest = kernel.NextWord(rest)
	}
	if len(f) == 0 || len(f) > 2 {
		return 0, false
	}
	var v uint64
	for _, c := range f {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

func hexDigit(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
