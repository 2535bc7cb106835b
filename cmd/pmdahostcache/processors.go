package main

import (
	"os"
	"runtime"
	"sync"
)

// processors keeps how many processors the Go runtime runs the agent's
// goroutines on: the configured number, or the GOMAXPROCS environment
// variable's when it is set (a developer's override), raised to two while
// the flight recorder writes an archive. It never leaves the runtime's
// default, one per CPU, in force: that costs an agent idle nearly all the
// time on a large host (each garbage collection starts a quarter as many
// workers as there are CPUs, and the runtime re-reads the cgroup's CPU
// limit every second to adjust it).
//
// One is the default because the agent is idle between sample ticks, and
// each tick is cheap next to what waking costs: with a second processor
// the runtime wakes a second thread at every tick to share the collectors'
// goroutines (docs/limits.md). A fetch arriving during a tick waits for
// its collectors at worst. An archive export is a long burst of work that
// fetches would queue behind, so the writer gets a processor of its own
// meanwhile.
type processors struct {
	mu      sync.Mutex
	env     bool // GOMAXPROCS is set: its number stands over the configuration's
	want    int  // the number to run on when no archive is written
	writing bool // an archive is being written
}

// newProcessors starts with the environment's number, when it sets one.
func newProcessors() *processors {
	p := &processors{}
	if os.Getenv("GOMAXPROCS") != "" {
		p.env, p.want = true, runtime.GOMAXPROCS(0)
	}
	return p
}

// set applies the configured number (unless the environment's stands)
// and returns the number in force.
func (p *processors) set(n int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.env {
		p.want = max(n, 1)
	}
	return p.applyLocked()
}

// recording is the flight recorder's Writing hook.
func (p *processors) recording(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writing = on
	p.applyLocked()
}

// applyLocked sets the wanted number, at least two while writing; an
// unchanged number costs the runtime nothing.
func (p *processors) applyLocked() int {
	n := p.want
	if p.writing {
		n = max(n, 2)
	}
	runtime.GOMAXPROCS(n)
	return n
}
