package collector

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// fsStats is what the filesys metrics need from statfs(2), widened to
// uint64 (statfs field types differ between architectures).
type fsStats struct {
	bsize, blocks, bfree, bavail, files, ffree uint64
}

// statfsFunc reads one mounted filesystem's usage. Tests replace it.
type statfsFunc func(path string) (fsStats, error)

// realStatfs is statfs(2).
func realStatfs(path string) (fsStats, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return fsStats{}, err
	}
	return fsStats{
		bsize: uint64(st.Bsize), blocks: st.Blocks, bfree: st.Bfree,
		bavail: st.Bavail, files: st.Files, ffree: st.Ffree,
	}, nil
}

// statCall is one statfs running in its own goroutine. done is closed once
// st and err are set, so a reader that saw done closed may read them.
type statCall struct {
	done chan struct{}
	st   fsStats
	err  error
}

// statfsRunner runs statfs calls with a deadline so that one hung mount (a
// dead FUSE daemon, a failing disk, a network block device) never holds up
// the others, the other collectors, or a sample for longer than timeout.
//
// A call that misses its deadline is left running and remembered: no
// second statfs of the same path starts until it returns, so a mount that
// hangs for an hour costs one goroutine, not one per sample. Its mount has
// no values meanwhile, and gets a fresh statfs on the first sample after
// the stuck one returned.
type statfsRunner struct {
	statfs   statfsFunc
	timeout  time.Duration
	mu       sync.Mutex
	inflight map[string]*statCall // by path, from start until the call returns
	stalls   atomic.Uint64        // calls that missed their deadline
}

func newStatfsRunner(f statfsFunc, timeout time.Duration) *statfsRunner {
	return &statfsRunner{statfs: f, timeout: timeout, inflight: map[string]*statCall{}}
}

// statAll statfs's every path concurrently and waits at most the timeout.
// Result i is nil when path i failed, timed out, or is still stuck from an
// earlier sample.
func (r *statfsRunner) statAll(paths []string) []*fsStats {
	calls := make([]*statCall, len(paths))
	for i, p := range paths {
		calls[i] = r.start(p)
	}
	deadline := time.NewTimer(r.timeout)
	defer deadline.Stop()
	expired := false
	out := make([]*fsStats, len(paths))
	for i, call := range calls {
		if call == nil {
			continue
		}
		if !expired {
			select {
			case <-call.done:
			case <-deadline.C:
				expired = true
			}
		}
		select {
		case <-call.done:
			if call.err == nil {
				out[i] = &call.st
			}
		default:
			r.stalls.Add(1)
		}
	}
	return out
}

// start begins a statfs of path, or returns nil if one is still running.
func (r *statfsRunner) start(path string) *statCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, busy := r.inflight[path]; busy {
		return nil
	}
	call := &statCall{done: make(chan struct{})}
	r.inflight[path] = call
	go r.run(path, call)
	return call
}

// run is the goroutine of one call. It runs outside the runner's panic
// recovery, so it recovers itself: a panicking statfs fails its mount only.
func (r *statfsRunner) run(path string, call *statCall) {
	defer func() {
		if p := recover(); p != nil {
			call.err = fmt.Errorf("statfs %s panicked: %v", path, p)
		}
		r.mu.Lock()
		delete(r.inflight, path)
		r.mu.Unlock()
		close(call.done)
	}()
	call.st, call.err = r.statfs(path)
}

// busy reports whether a statfs of path is still running.
func (r *statfsRunner) busy(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.inflight[path]
	return ok
}
