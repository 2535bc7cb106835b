package pmda

import (
	"errors"
	"io"
	"syscall"
	"time"
	"unsafe"
)

// Stream is a connection to pmcd on a non-blocking descriptor (a pipe or a
// socket) that is read and written with raw system calls, waiting for
// readiness in the Go runtime's poller.
//
// Why not an os.File or net.Conn read: those enter the scheduler's system
// call path, which wakes the runtime's monitor thread whenever it was
// asleep. An agent idle between fetches has it asleep at every fetch, and
// once woken it polls for a while, which costs an isolated fetch several
// times its own CPU. Reads and writes of a non-blocking descriptor return
// at once, so they may skip that path; all waiting is left to the poller.
type Stream struct {
	rc     syscall.RawConn
	closer io.Closer

	// Burst reads (pipe input only, see ReadBlockingInBursts).
	burst    bool
	fd       int
	blocking bool             // fd is in blocking mode now
	waits    [2]time.Duration // how long the last two Reads waited
}

// burstWait is the longest wait for a request after which the next read
// still expects pmcd to be sending back to back. The last two reads must
// both have waited less: a reader that takes a PDU's header and body in
// two reads sees the body at once, and that says nothing of the pause
// before the header.
const burstWait = time.Millisecond

// SyscallConner is what a Stream is built on: an *os.File opened
// non-blocking, or a *net.UnixConn or *net.TCPConn.
type SyscallConner interface {
	SyscallConn() (syscall.RawConn, error)
}

// NewStream wraps c; closing the stream closes closer (normally c).
func NewStream(c SyscallConner, closer io.Closer) (*Stream, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &Stream{rc: rc, closer: closer}, nil
}

// rawIO makes one read or write system call without the scheduler's
// system call bookkeeping: the descriptor is non-blocking, so it returns
// at once.
func rawIO(trap, fd uintptr, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	n, _, errno := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(n), errno
}

// ReadBlockingInBursts makes Read use a plain blocking read while requests
// come back to back (the last two waited under burstWait), and the
// poller otherwise. A blocking pipe read is woken on the writer's CPU (a
// "synchronous" wake-up), which the poller's is not, so back-to-back
// fetches answer sooner. In a burst the monitor thread never takes the P back (that needs 10 ms in the
// call), so the cost the poller avoids does not arise there. Only for an
// input fd of its own (a pipe): writes must never meet it in blocking mode.
func (s *Stream) ReadBlockingInBursts() error {
	var fd int
	if err := s.rc.Control(func(f uintptr) { fd = int(f) }); err != nil {
		return err
	}
	s.burst, s.fd = true, fd
	return nil
}

// Read reads what is available, waiting until something is.
func (s *Stream) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if !s.burst {
		return s.readPolled(p)
	}
	start := time.Now()
	n, err := s.readBurst(p, max(s.waits[0], s.waits[1]) < burstWait)
	s.waits[0], s.waits[1] = s.waits[1], time.Since(start)
	return n, err
}

// readBurst reads with a blocking system call when block is set, through
// the poller otherwise, switching the fd's mode when it must.
func (s *Stream) readBurst(p []byte, block bool) (int, error) {
	if block != s.blocking {
		if err := syscall.SetNonblock(s.fd, !block); err != nil {
			return 0, err
		}
		s.blocking = block
	}
	if !block {
		return s.readPolled(p)
	}
	for {
		// syscall.Read, not a raw call: while it waits the runtime may hand
		// our P to other goroutines.
		n, err := syscall.Read(s.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// readPolled reads what is available, waiting in the poller until
// something is.
func (s *Stream) readPolled(p []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := s.rc.Read(func(fd uintptr) bool {
		for {
			n, errno = rawIO(syscall.SYS_READ, fd, p)
			if errno != syscall.EINTR {
				return errno != syscall.EAGAIN // false: wait for readiness
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, waiting in the poller while the peer's buffer is
// full.
func (s *Stream) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := s.rc.Write(func(fd uintptr) bool {
		for done < len(p) {
			n, e := rawIO(syscall.SYS_WRITE, fd, p[done:])
			switch e {
			case 0:
				done += n
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	if err == nil && done < len(p) {
		err = io.ErrShortWrite
	}
	return done, err
}

// Close closes the descriptor; a Read waiting in the poller returns.
func (s *Stream) Close() error {
	if s.closer == nil {
		return errors.New("stream has nothing to close")
	}
	return s.closer.Close()
}
