package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sys/unix"
)

// children are the sleeping processes the procs report adds to the host.
// Each is /bin/sleep, started by fork and exec (no shell) and killed by
// the kernel should the bench die first (Pdeathsig); reap kills and waits
// for them all.
type children struct {
	mu    sync.Mutex
	procs []*os.Process
	null  *os.File
}

// sleeper is the command each child runs: it blocks an hour, far past any run.
var sleeper = []string{"/bin/sleep", "3600"}

// newChildren opens what the children inherit.
func newChildren() (*children, error) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	return &children{null: null}, nil
}

// reapOnSignal has a signal to the bench reap the children before it exits.
func (c *children) reapOnSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		n := c.reap()
		fmt.Fprintf(os.Stderr, "bench procs: %v: reaped %d children\n", s, n)
		os.Exit(1)
	}()
}

// grow starts children until there are n. Process creation is slow on
// a small virtual machine (milliseconds each), so workers start them in
// parallel, two per CPU.
func (c *children) grow(n int) error {
	attr := &os.ProcAttr{Files: []*os.File{c.null, c.null, c.null},
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}}
	todo := make(chan struct{}, max(n-c.count(), 0))
	for range cap(todo) {
		todo <- struct{}{}
	}
	close(todo)
	var g errgroup.Group
	for range 2 * runtime.NumCPU() {
		g.Go(func() error {
			for range todo {
				p, err := os.StartProcess(sleeper[0], sleeper, attr)
				if err != nil {
					return fmt.Errorf("starting a child beside %d: %w", c.count(), err)
				}
				c.mu.Lock()
				c.procs = append(c.procs, p)
				c.mu.Unlock()
			}
			return nil
		})
	}
	return g.Wait()
}

func (c *children) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.procs)
}

// reap kills every child and waits for each; it returns how many there were.
func (c *children) reap() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.procs {
		p.Signal(syscall.SIGKILL)
	}
	for _, p := range c.procs {
		p.Wait()
	}
	n := len(c.procs)
	c.procs = nil
	return n
}

// roomForChildren checks that the PID space holds extra more processes
// and raises the bench's process limit when it would stop them.
func roomForChildren(extra int) (pidMax int, err error) {
	if pidMax, err = readIntFile("/proc/sys/kernel/pid_max"); err != nil {
		return 0, err
	}
	pids, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	// Threads take PIDs too: the loadavg's total counts them all.
	tasks := len(pids)
	if text, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(text)); len(f) > 3 {
			if _, total, ok := strings.Cut(f[3], "/"); ok {
				tasks, _ = strconv.Atoi(total)
			}
		}
	}
	if tasks+extra+1000 > pidMax {
		return pidMax, fmt.Errorf("pid_max %d leaves no room for %d children beside %d tasks",
			pidMax, extra, tasks)
	}
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
		return pidMax, err
	}
	want := uint64(tasks + extra + 1000)
	if lim.Cur != unix.RLIM_INFINITY && lim.Cur < want {
		lim.Cur = min(want, lim.Max)
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
			return pidMax, fmt.Errorf("raising RLIMIT_NPROC to %d: %w", lim.Cur, err)
		}
	}
	return pidMax, nil
}

func readIntFile(path string) (int, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(text)))
}
