package main

import "runtime"

// applyProcessors sets how many processors run the agent's goroutines
// (0: one per CPU, the runtime's default) and returns the number now in
// force.
//
// One is the default because the agent is idle between sample ticks, and
// each tick is cheap next to what waking costs: with a second processor
// the runtime wakes a second thread at every tick to share the collectors'
// goroutines, and on the machines we measured each wake-up of a thread
// cost as much CPU as a small collector's whole sample (make bench's
// background section; docs/limits.md). A fetch that arrives during a tick
// waits for the collectors' CPU burst at worst (a few hundred microseconds
// on a small host); a collector blocked in the kernel never holds the
// processor, which the runtime hands to the other goroutines.
func applyProcessors(n int) int {
	if n <= 0 {
		runtime.SetDefaultGOMAXPROCS()
	} else {
		runtime.GOMAXPROCS(n)
	}
	return runtime.GOMAXPROCS(0)
}
