package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
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
		return pmda.Stdio()
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
