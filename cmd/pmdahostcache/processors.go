package main

import (
	"runtime"
	"sync"
)

// processors keeps how many processors the Go runtime runs the agent's
// goroutines on: the configured number (0: the runtime's default, one per
// CPU), raised to two while the flight recorder writes an archive.
//
// One is the default because the agent is idle between sample ticks, and
// each tick is cheap next to what waking costs: with a second processor
// the runtime wakes a second thread at every tick to share the collectors'
// goroutines, which cost a fifth of a small host's background CPU and half
// of an unread agent's on the machines we measured (docs/limits.md). A
// fetch arriving during a tick waits for its collectors at worst, as it
// could already on two processors, which nine goroutines readied at once
// fill. An archive export is different: a long burst of work, during which
// fetches on one processor waited behind its write slices (p99 six times
// an idle agent's), so the writer gets a processor of its own meanwhile.
type processors struct {
	mu      sync.Mutex
	want    int  // configured; 0 the runtime's default
	writing bool // an archive is being written
}

// set applies the configured number and returns the number in force.
func (p *processors) set(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.want = n
	if n <= 0 {
		runtime.SetDefaultGOMAXPROCS()
		return runtime.GOMAXPROCS(0)
	}
	return p.applyLocked()
}

// recording is the flight recorder's Writing hook.
func (p *processors) recording(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writing = on
	if p.want > 0 { // the runtime's default is left alone
		p.applyLocked()
	}
}

// applyLocked sets the configured number, at least two while writing; an
// unchanged number costs the runtime nothing.
func (p *processors) applyLocked() int {
	n := p.want
	if p.writing {
		n = max(n, 2)
	}
	runtime.GOMAXPROCS(n)
	return n
}
