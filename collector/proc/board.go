package proc

import "sync"

// board passes the processes the process collector listed to the
// collectors of the costly groups (group.go), which read the files of
// those processes alone: their values then belong to the instances the
// process domain lists. The collectors sample in goroutines of their own.
type board struct {
	mu    sync.Mutex
	pids  []int32         // sorted, as of the process collector's last sample
	hot   map[uint32]bool // the hot processes (hotproc.go); never changed once posted
	built bool            // the process collector is built (not disabled)
	// listing is the latest listing of /proc, for fetches the samples
	// are late for (present.go).
	listing listing
}

// post records a sample's processes and the hot ones among them.
func (b *board) post(pids []int32, hot map[uint32]bool) {
	b.mu.Lock()
	b.pids = append(b.pids[:0], pids...)
	b.hot = hot
	b.mu.Unlock()
}

// hotSet is the hot processes of the last sample, not to be changed.
func (b *board) hotSet() map[uint32]bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.hot
}

// read copies the processes of the last sample into dst.
func (b *board) read(dst []int32) []int32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append(dst[:0], b.pids...)
}

// markBuilt records that the process collector exists.
func (b *board) markBuilt() {
	b.mu.Lock()
	b.built = true
	b.mu.Unlock()
}

func (b *board) hasLister() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.built
}
