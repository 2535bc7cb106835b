package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// connect returns the stream pmcd talks to us over: stdin/stdout for a pipe
// agent, or the single connection pmcd makes to our listening socket.
func connect(ctx context.Context, cfg config.Config, log zerolog.Logger) (io.ReadWriteCloser, error) {
	var network, addr string
	switch cfg.IPC {
	case config.IPCPipe:
		return pipeStreams()
	case config.IPCInet:
		network, addr = "tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Port))
	case config.IPCIPv6:
		network, addr = "tcp6", net.JoinHostPort("::1", strconv.Itoa(cfg.Port))
	case config.IPCUnix:
		network, addr = "unix", cfg.SocketPath
		os.Remove(addr) // a stale socket from a previous run
	default:
		return nil, fmt.Errorf("unknown IPC mode %q", cfg.IPC)
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("listening for pmcd: %w", err)
	}
	// As libpcp_pmda does: accept exactly one connection, then stop listening.
	defer ln.Close()
	log.Info().Str("network", network).Str("addr", addr).Msg("waiting for pmcd")
	if dl, ok := ln.(interface{ SetDeadline(time.Time) error }); ok {
		dl.SetDeadline(time.Now().Add(connTimeout))
	}
	conn, err := ln.Accept()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoConn, err)
	}
	if sc, ok := conn.(pmda.SyscallConner); ok {
		return pmda.NewStream(sc, conn)
	}
	return conn, nil
}

// pipeStreams returns stdin and stdout as one connection. When they are
// pipes or sockets, as pmcd makes them, they are switched to non-blocking
// and served as pmda.Streams (see there why). Anything else (a terminal, a
// file) keeps plain blocking reads, so a hand-run agent never leaves a
// shell's terminal non-blocking.
func pipeStreams() (io.ReadWriteCloser, error) {
	if !isPipeOrSocket(0) || !isPipeOrSocket(1) {
		return pipeConn{Reader: os.Stdin, Writer: os.Stdout}, nil
	}
	for _, fd := range []int{0, 1} {
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, fmt.Errorf("making fd %d non-blocking: %w", fd, err)
		}
	}
	// New Files for the now non-blocking fds: os.NewFile registers them
	// with the runtime's poller, which os.Stdin, made blocking, is not.
	in, out := os.NewFile(0, "pmcd-in"), os.NewFile(1, "pmcd-out")
	r, err := pmda.NewStream(in, in)
	if err != nil {
		return nil, err
	}
	// A pipe, as pmcd gives us, is stdin's own: back-to-back requests may
	// be read with blocking calls, which wake faster. Not a socket: stdin
	// and stdout could share it, and writes must never find it blocking.
	if fileKind(0) == syscall.S_IFIFO {
		if err := r.ReadBlockingInBursts(); err != nil {
			return nil, err
		}
	}
	w, err := pmda.NewStream(out, out)
	if err != nil {
		return nil, err
	}
	return pipeConn{Reader: r, Writer: w, closer: r}, nil
}

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
