// Package driver plays pmcd's side of the PMDA protocol: it starts a daemon
// PMDA binary on pipes exactly as pmcd does (the agent speaks first with its
// CREDS, then gets pmcd's), sends requests and reads replies. The benchmark
// tools and the malformed-PDU suite drive real agents with it, ours and
// PCP's own.
package driver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// Timeouts pmcd applies: 3 s for the agent's CREDS, 5 s for any reply.
const (
	CredsTimeout = 3 * time.Second
	ReplyTimeout = 5 * time.Second
)

// Agent is a running PMDA process connected by pipes.
type Agent struct {
	cmd     *exec.Cmd
	in      *os.File // the agent's stdin: our requests
	out     *os.File // the agent's stdout: its replies
	buf     []byte
	Creds   pmda.Creds    // what the agent said in its CREDS
	done    chan struct{} // closed when the process has exited
	exitErr error         // set before done is closed
}

// Start runs path with args, stderr going to stderr (nil discards it), and
// completes the CREDS handshake.
func Start(path string, args []string, stderr io.Writer) (*Agent, error) {
	inR, inW, err := pipe(false)
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe(true)
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, err
	}
	inR.Close()
	outW.Close()
	a := &Agent{cmd: cmd, in: inW, out: outR, done: make(chan struct{})}
	go func() {
		a.exitErr = cmd.Wait()
		close(a.done)
	}()
	if err := a.handshake(); err != nil {
		a.Kill()
		return nil, err
	}
	return a, nil
}

// pipe makes a pipe whose agent end is blocking, as pmcd's pipes are (the
// agent's runtime behaves differently on a non-blocking stdin). Our end is
// non-blocking when we read from it (readEnd), so reads can time out.
func pipe(ourEndReads bool) (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, err
	}
	ours := fds[1]
	if ourEndReads {
		ours = fds[0]
	}
	if err := syscall.SetNonblock(ours, true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w"), nil
}

func (a *Agent) handshake() error {
	h, pdu, err := a.read(CredsTimeout)
	if err != nil {
		return fmt.Errorf("waiting for the agent's CREDS: %w", err)
	}
	if h.Type != pmda.TypeCreds {
		return fmt.Errorf("agent spoke first with %s, not CREDS", h.Type)
	}
	if err := a.Creds.Decode(pdu); err != nil {
		return err
	}
	// pmcd answers with version 2 and only the AUTH flag echoed.
	reply := pmda.Creds{From: int32(os.Getpid()), Version: 2, Flags: a.Creds.Flags & pmda.FlagAuth}
	return a.Send(reply.Append(nil))
}

// Pid returns the agent's process id.
func (a *Agent) Pid() int { return a.cmd.Process.Pid }

// Send writes one PDU (or any bytes) to the agent.
func (a *Agent) Send(pdu []byte) error {
	_, err := a.in.Write(pdu)
	return err
}

// Read reads one reply with pmcd's timeout. The returned bytes are valid
// until the next Read.
func (a *Agent) Read() (pmda.Header, []byte, error) { return a.read(ReplyTimeout) }

func (a *Agent) read(timeout time.Duration) (pmda.Header, []byte, error) {
	a.out.SetReadDeadline(time.Now().Add(timeout))
	h, pdu, err := pmda.ReadPDU(a.out, a.buf, 1<<30)
	a.buf = pdu
	return h, pdu, err
}

// Request sends a PDU and reads the reply.
func (a *Agent) Request(pdu []byte) (pmda.Header, []byte, error) {
	if err := a.Send(pdu); err != nil {
		return pmda.Header{}, nil, err
	}
	return a.Read()
}

// ErrNoExit means the agent did not exit after its input closed.
var ErrNoExit = errors.New("agent did not exit on EOF")

// Close closes the agent's input, as pmcd does to drop an agent, and waits
// for it to exit. Anything it still wrote is returned: it must be whole
// PDUs only.
func (a *Agent) Close(wait time.Duration) ([]byte, error) {
	a.in.Close()
	a.out.SetReadDeadline(time.Now().Add(wait))
	rest, _ := io.ReadAll(a.out)
	select {
	case <-a.done:
		a.out.Close()
		return rest, a.exitErr
	case <-time.After(wait):
		a.Kill()
		return rest, ErrNoExit
	}
}

// Exited reports whether the agent has exited, without waiting.
func (a *Agent) Exited() bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

// Kill stops the agent at once.
func (a *Agent) Kill() {
	a.cmd.Process.Kill()
	a.in.Close()
	a.out.Close()
}
