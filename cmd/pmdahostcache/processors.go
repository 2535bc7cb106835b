package main

import "runtime"

// applyProcessors sets how many processors run the agent's goroutines
// (0: the runtime's default, one per CPU) and returns the number now in
// force.
//
// One processor is for a host whose agent is read seldom (pmlogger every
// few seconds or less often): between sample ticks the agent is idle, and
// with more than one processor the runtime wakes a second thread at every
// tick to share the collectors' goroutines, which on the machines we
// measured cost a fifth of the background CPU of a small host. The price
// is paid by fetches: one arriving during a tick, or while an archive is
// exported, waits for that work's CPU (fetch p99 during exports rose
// sixfold). docs/limits.md has the figures of both ways.
func applyProcessors(n int) int {
	if n <= 0 {
		runtime.SetDefaultGOMAXPROCS()
	} else {
		runtime.GOMAXPROCS(n)
	}
	return runtime.GOMAXPROCS(0)
}
