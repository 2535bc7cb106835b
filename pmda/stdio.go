package pmda

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Stdio returns stdin and stdout, the pipes pmcd gives a pipe agent, as
// one connection; Close closes the input, so pmcd sees us go and a read
// waiting in the poller returns.
//
// When both are pipes or sockets, as pmcd makes them, they are switched to
// non-blocking and served as Streams (see there why); a pipe on stdin, its
// own, also reads back-to-back requests with blocking calls. Anything else
// (a terminal, a file) keeps os.Stdin and os.Stdout, so a hand-run agent
// never leaves a shell's terminal non-blocking.
func Stdio() (io.ReadWriteCloser, error) {
	if !isPipeOrSocket(0) || !isPipeOrSocket(1) {
		return stdio{Reader: os.Stdin, Writer: os.Stdout, closer: os.Stdin}, nil
	}
	for _, fd := range []int{0, 1} {
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, fmt.Errorf("making fd %d non-blocking: %w", fd, err)
		}
	}
	// New Files for the now non-blocking fds: os.NewFile registers them
	// with the runtime's poller, which os.Stdin, made blocking, is not.
	in, out := os.NewFile(0, "pmcd-in"), os.NewFile(1, "pmcd-out")
	r, err := NewStream(in, in)
	if err != nil {
		return nil, err
	}
	// Not for a socket: stdin and stdout could share it, and writes must
	// never find it blocking.
	if fileKind(0) == syscall.S_IFIFO {
		if err := r.ReadBlockingInBursts(); err != nil {
			return nil, err
		}
	}
	w, err := NewStream(out, out)
	if err != nil {
		return nil, err
	}
	return stdio{Reader: r, Writer: w, closer: r}, nil
}

// stdio joins an input and an output; closing it closes the input.
type stdio struct {
	io.Reader
	io.Writer
	closer io.Closer
}

func (c stdio) Close() error { return c.closer.Close() }

func isPipeOrSocket(fd int) bool {
	kind := fileKind(fd)
	return kind == syscall.S_IFIFO || kind == syscall.S_IFSOCK
}

// fileKind returns fd's file type bits (S_IFIFO, S_IFSOCK, ...), 0 if unknown.
func fileKind(fd int) uint32 {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0
	}
	return st.Mode & syscall.S_IFMT
}
