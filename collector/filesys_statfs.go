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
// One worker goroutine statfs's the paths in turn: a host with thousands
// of mounts costs one goroutine a sample, not one a mount. When the worker
// makes no progress for stallCheck (it is stuck in a call), another takes
// over the paths not yet started. A call that misses its deadline is left
// running and remembered: no second statfs of the same path starts until
// it returns, so a mount that hangs for an hour costs one goroutine, not
// one per sample. Its mount has no values meanwhile, and gets a fresh
// statfs on the first sample after the stuck one returned.
type statfsRunner struct {
	statfs   statfsFunc
	timeout  time.Duration
	mu       sync.Mutex
	inflight map[string]bool // by path, from start until the call returns
	stalls   atomic.Uint64   // calls that missed their deadline
}

// stallCheck is how long the worker may go without finishing a statfs
// before another worker takes over the paths after the one it is in.
const stallCheck = 20 * time.Millisecond

func newStatfsRunner(f statfsFunc, timeout time.Duration) *statfsRunner {
	return &statfsRunner{statfs: f, timeout: timeout, inflight: map[string]bool{}}
}

// statJob is one sample's statfs calls, shared by its workers. Workers
// take paths in order through next; results are kept under mu until the
// sample stops waiting (closed), after which late ones are dropped.
type statJob struct {
	paths  []string
	next   atomic.Int64
	mu     sync.Mutex
	out    []*fsStats
	ended  []bool // path i's call returned, or was never started
	left   int    // paths not ended
	done   chan struct{}
	closed bool
	over   atomic.Bool // closed, for workers deciding whether to go on
}

// statAll statfs's every path and waits at most the timeout. Result i is
// nil when path i failed, timed out, or is still stuck from an earlier
// sample.
func (r *statfsRunner) statAll(paths []string) []*fsStats {
	j := &statJob{paths: paths, out: make([]*fsStats, len(paths)), ended: make([]bool, len(paths)),
		left: len(paths), done: make(chan struct{})}
	if len(paths) == 0 {
		return j.out
	}
	go r.work(j)
	deadline := time.NewTimer(r.timeout)
	defer deadline.Stop()
	check := time.NewTicker(stallCheck)
	defer check.Stop()
	last := -1
	for {
		select {
		case <-j.done:
		case <-deadline.C:
		case <-check.C:
			if left := j.remaining(); left != last {
				last = left
			} else if int(j.next.Load()) < len(paths) {
				go r.work(j) // the worker is stuck in a call: take the rest over
			}
			continue
		}
		return j.close(&r.stalls)
	}
}

// remaining is how many paths have not ended.
func (j *statJob) remaining() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.left
}

// close stops the sample's wait and returns its results, counting the
// calls that did not end in time as stalls.
func (j *statJob) close(stalls *atomic.Uint64) []*fsStats {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	j.over.Store(true)
	for _, ended := range j.ended {
		if !ended {
			stalls.Add(1)
		}
	}
	return j.out
}

// end records path i's result (nil: none) while the sample still waits.
func (j *statJob) end(i int, st *fsStats) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return
	}
	j.out[i], j.ended[i] = st, true
	if j.left--; j.left == 0 {
		close(j.done)
	}
}

// work statfs's the job's paths not yet taken, one at a time.
func (r *statfsRunner) work(j *statJob) {
	for {
		i := int(j.next.Add(1)) - 1
		if i >= len(j.paths) || j.over.Load() {
			return // done, or the sample stopped waiting: start no more
		}
		if !r.claim(j.paths[i]) {
			j.end(i, nil) // still stuck from an earlier sample
			continue
		}
		st, err := r.call(j.paths[i])
		if err != nil {
			j.end(i, nil)
			continue
		}
		j.end(i, &st)
	}
}

// claim marks path in flight, or reports false if it already is.
func (r *statfsRunner) claim(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inflight[path] {
		return false
	}
	r.inflight[path] = true
	return true
}

// call is one statfs. Workers run outside the runner's panic recovery, so
// it recovers itself: a panicking statfs fails its mount only.
func (r *statfsRunner) call(path string) (st fsStats, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("statfs %s panicked: %v", path, p)
		}
		r.mu.Lock()
		delete(r.inflight, path)
		r.mu.Unlock()
	}()
	return r.statfs(path)
}

// busy reports whether a statfs of path is still running.
func (r *statfsRunner) busy(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inflight[path]
}
