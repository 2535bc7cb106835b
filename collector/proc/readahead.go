package proc

import (
	"fmt"
	"runtime"
	"sync"
)

// readAhead reads the processes' files of a sample in worker goroutines,
// a chunk of processes at a time, while the sample takes the records in
// PID order. A sample of 1,000 processes is some 6,000 opens and reads,
// nearly all of it the kernel's time: two readers take a quarter to a
// third off a sample's time, and so off the wait of a fetch that asked
// for a fresh one, and bring more hosts' samples within fetch_wait. They
// cost 3 to 25 % more CPU, so a collector no client reads (slowed) reads
// in turn.
//
// Each chunk's slots hold their own readers, since a record points into
// its reader's buffers (stat's command, status's lines). A chunk is
// read again only once the sample has taken its records.
type readAhead struct {
	chunks  [readAheadChunks][]slot
	workers int
}

// slot is one process's read.
type slot struct {
	rd  reader
	rec record
	err error
}

const (
	// readAheadSize is the processes in a chunk.
	readAheadSize = 32
	// readAheadChunks are the chunks read or being taken at once: two a
	// worker, so a worker reads one while the sample takes the other.
	readAheadChunks = 4
	// readAheadMin is the fewest processes read ahead; fewer are read
	// in the sample's goroutine.
	readAheadMin = 4 * readAheadSize
)

// newReadAhead gives each slot a reader of root; nil where one worker
// is all there is (GOMAXPROCS 1).
func newReadAhead(root string) *readAhead {
	if runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	return readAheadWith(root, 2)
}

// readAheadWith gives each slot a reader of root, for workers workers.
func readAheadWith(root string, workers int) *readAhead {
	ra := &readAhead{workers: workers}
	for i := range ra.chunks {
		ra.chunks[i] = make([]slot, readAheadSize)
		for j := range ra.chunks[i] {
			ra.chunks[i][j].rd = reader{root: root}
		}
	}
	return ra
}

// chunkFault is a worker's panic, raised again in the sample's goroutine
// so that the engine recovers it as it does any collector's.
type chunkFault struct{ v any }

// each reads the processes of pids and calls take with each one's record
// and reader in pids' order; err is the read's (errGone for a process
// that exited). base is copied into each record before its read.
func (ra *readAhead) each(pids []int32, base record, take func(r *record, rd *reader, err error)) {
	n := (len(pids) + readAheadSize - 1) / readAheadSize
	var ready, free [readAheadChunks]chan chunkFault
	for i := range ready {
		ready[i], free[i] = make(chan chunkFault, 1), make(chan chunkFault, 1)
		free[i] <- chunkFault{}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop) // before the wait: a worker waiting for a chunk leaves
	for w := range ra.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += ra.workers {
				b := i % readAheadChunks
				select {
				case <-free[b]:
				case <-stop:
					return
				}
				ready[b] <- ra.fill(b, chunkOf(pids, i), base)
			}
		}()
	}
	for i := range n {
		b := i % readAheadChunks
		if f := <-ready[b]; f.v != nil {
			panic(fmt.Sprintf("proc: a reader panicked: %v", f.v))
		}
		for j := range chunkOf(pids, i) {
			s := &ra.chunks[b][j]
			take(&s.rec, &s.rd, s.err)
		}
		free[b] <- chunkFault{}
	}
}

// fill reads the processes of one chunk into buffer b's slots; a panic
// is caught and handed to the sample.
func (ra *readAhead) fill(b int, pids []int32, base record) (fault chunkFault) {
	defer func() {
		if v := recover(); v != nil {
			fault = chunkFault{v: v}
		}
	}()
	for j, pid := range pids {
		s := &ra.chunks[b][j]
		s.rec = base
		s.err = s.rd.read(pid, &s.rec)
	}
	return chunkFault{}
}

// chunkOf is chunk i of pids.
func chunkOf(pids []int32, i int) []int32 {
	return pids[i*readAheadSize : min(len(pids), (i+1)*readAheadSize)]
}
