package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// besideListener is the unix socket on which the stand-in answers
// hostcache's own domain (-B). pmcd.conf's hostcache entry names the
// socket and no command: pmcd connects to it after it has started the
// stand-in as its linux entry (pmcd.conf is sorted by domain, and pmcd
// starts its agents in order, each pipe agent's handshake before the
// next), and again after it dropped the connection, at its next SIGHUP
// or automatic restart. So the socket is made before the stand-in's
// CREDS go out on the pipe, and it listens for as long as the process
// runs, one pmcd connection at a time.
type besideListener struct {
	path string
	uid  int // the one other user allowed to connect besides root: PCP's
	gid  int
	log  zerolog.Logger
	ln   *net.UnixListener
	file os.FileInfo // the socket file ln is bound to
	// yielded is set once another process's socket was found at the
	// path: this one no longer answers there.
	yielded bool
}

// besideRecheck is how often a listener with no connection checks that
// its socket file is still the one it bound: pmcd unlinks the path when it
// drops the agent (where its user may), and its next connection must find
// the socket there.
const besideRecheck = time.Second

// listenBeside makes the socket at path, connectable by root and PCP's
// user (pcpUser) only.
func listenBeside(path, pcpUser string, log zerolog.Logger) (*besideListener, error) {
	b := &besideListener{path: path, uid: -1, gid: -1, log: log}
	if u, err := user.Lookup(pcpUser); err == nil {
		b.uid, _ = strconv.Atoi(u.Uid)
		b.gid, _ = strconv.Atoi(u.Gid)
	} else if os.Geteuid() == 0 {
		return nil, fmt.Errorf("-B %s: PCP's user %q: %w", path, pcpUser, err)
	}
	if err := b.listen(); err != nil {
		return nil, err
	}
	return b, nil
}

// listen binds the socket afresh, replacing whatever is at the path (a
// socket left by an earlier process, which nobody answers any more).
func (b *besideListener) listen() error {
	os.Remove(b.path)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: b.path, Net: "unix"})
	if err != nil {
		return fmt.Errorf("listening for pmcd on %s: %w", b.path, err)
	}
	// Closing must not unlink the path: by then it may be a later
	// process's socket (pmcd restarted the stand-in).
	ln.SetUnlinkOnClose(false)
	if err := b.restrict(); err != nil {
		ln.Close()
		return err
	}
	fi, err := os.Stat(b.path)
	if err != nil {
		ln.Close()
		return err
	}
	b.ln, b.file = ln, fi
	b.log.Info().Str("socket", b.path).Msg("listening for pmcd's hostcache entry")
	return nil
}

// restrict lets only PCP's user (pmcd after its start) and root (pmcd as
// it starts) connect: a unix socket is connected to with write
// permission. As an ordinary user (tests) it stays the agent's user's.
func (b *besideListener) restrict() error {
	if err := os.Chmod(b.path, 0o600); err != nil {
		return err
	}
	if os.Geteuid() != 0 || b.uid < 0 {
		return nil
	}
	return os.Chown(b.path, b.uid, b.gid)
}

// pathState is what the socket's path holds now.
type pathState int

const (
	pathOurs    pathState = iota // the socket b bound
	pathGone                     // nothing: pmcd, as root, unlinked it
	pathAnother                  // a file b did not bind: another agent's socket
)

// state reports what the path holds now.
func (b *besideListener) state() pathState {
	fi, err := os.Lstat(b.path)
	switch {
	case err != nil:
		return pathGone
	case os.SameFile(fi, b.file):
		return pathOurs
	}
	return pathAnother
}

// serve accepts pmcd's connections one at a time and gives each to
// serveConn until ctx ends. A connection from any other user is refused
// and logged; a connection that ends (pmcd dropped the agent) is
// followed by listening again, on a socket made anew if the path has
// gone (rebindIfGone). Nothing here ends the process: the pipe does. Nor does anything
// here close the socket when ctx ends: the process's exit closes it with
// the pipe, at once. Closed first, it would tell pmcd of a dead agent
// whose other entry still looks alive: pmcd's restart of the one, at
// once, would then find nothing listening, and its next restart of both
// is a minute later.
func (b *besideListener) serve(ctx context.Context, serveConn func(context.Context, *net.UnixConn) error) {
	for ctx.Err() == nil {
		if !b.rebindIfGone(ctx) {
			continue
		}
		b.ln.SetDeadline(time.Now().Add(besideRecheck))
		conn, err := b.ln.AcceptUnix()
		if err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				b.log.Warn().Err(err).Msg("accepting pmcd's connection")
				sleepCtx(ctx, besideRecheck)
			}
			continue
		}
		if !b.allowed(conn) {
			conn.Close()
			continue
		}
		err = serveConn(ctx, conn)
		if ctx.Err() != nil {
			return // the exit closes the connection, with the pipe
		}
		conn.Close()
		b.log.Info().Err(err).Msg("pmcd's connection to hostcache's domain ended; listening again")
	}
}

// rebindIfGone makes the socket again when its path has gone, and
// reports whether b has a listener to accept on. A path that holds
// another file is left alone: a later agent (pmcd restarted the stand-in
// while this one shuts down) bound it, and pmcd must reach that one.
// Replacing it would leave pmcd a socket nobody answers once this
// process exits.
func (b *besideListener) rebindIfGone(ctx context.Context) bool {
	switch b.state() {
	case pathOurs:
		return true
	case pathAnother:
		if !b.yielded {
			b.yielded = true
			b.log.Warn().Str("socket", b.path).
				Msg("another process's socket is at the path: leaving it to that one")
		}
		sleepCtx(ctx, besideRecheck)
		return false
	}
	b.log.Info().Str("socket", b.path).Msg("the socket is gone: making it again")
	b.ln.Close()
	if err := b.listen(); err != nil {
		b.log.Error().Err(err).Msg("hostcache's domain is not answered")
		sleepCtx(ctx, besideRecheck)
		return false
	}
	return true
}

// allowed checks the peer: root or PCP's user, as pmcd runs as one or
// the other (or the agent's own user, which a test runs it as).
func (b *besideListener) allowed(conn *net.UnixConn) bool {
	uid, pid, err := peerCreds(conn)
	switch {
	case err != nil:
		b.log.Warn().Err(err).Msg("refused a connection: its peer is unknown")
		return false
	case uid != 0 && uid != b.uid && uid != os.Geteuid():
		b.log.Warn().Int("uid", uid).Int("pid", pid).
			Msg("refused a connection that is not pmcd's (neither root nor PCP's user)")
		return false
	}
	return true
}

// peerCreds returns the uid and pid of a unix connection's peer
// (SO_PEERCRED).
func peerCreds(conn *net.UnixConn) (uid, pid int, err error) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := rc.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, 0, err
	}
	if cerr != nil {
		return 0, 0, cerr
	}
	return int(cred.Uid), int(cred.Pid), nil
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
