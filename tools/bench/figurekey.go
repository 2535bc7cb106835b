package main

import (
	"fmt"
	"strings"
)

// figureKey is the section of docs/performance.md that says what each of
// its CPU-per-second figures holds. Four sections measure the agent's CPU
// per second over different windows and sums; without this key a reader
// takes them for one quantity given three ways. idle is the window of the
// PDU level's and the stand-in's idle figure.
func figureKey(idle fmt.Stringer) string {
	var b strings.Builder
	b.WriteString("## CPU per second: which figure is which\n\n" +
		"Four sections give the agent's CPU per second.\n" +
		"Each holds something else, so their figures differ.\n\n")
	fmt.Fprintf(&b, "- **CPU per s, %s idle** (PDU level; In pmdalinux's place): the agent on pipes for %s,\n"+
		"  shortly after its warm-up fetches, nobody fetching.\n"+
		"  CPU per fetch subtracts it.\n"+
		"  It holds the samples of the 1 s and 5 s collectors.\n"+
		"  It holds a 10 s collector's sample only in some runs, and a minute's work seldom.\n"+
		"  So it can fall below the collectors' own work, when a dear 10 s collector misses its window.\n",
		idle, idle)
	b.WriteString("- **The collectors' own work** (Each collector's cost per sample, the `all` row): each\n" +
		"  collector's CPU per sample, in process, spread over its default interval and summed.\n" +
		"  It leaves out waking, the Go runtime and publishing.\n" +
		"- **This host's background at default intervals** " +
		"(Readers at distinct phases, the `no reader` row):\n" +
		"  the agent with its defaults on pipes, nobody fetching, in its first minute.\n" +
		"  It holds every collector of up to 10 s, waking, the runtime and publishing.\n" +
		"- **The background at scale** (Background CPU at scale): the agent on generated hosts, nobody\n" +
		"  fetching, over a minute in its second minute, beside the floors that only re-read its files.\n\n")
	return b.String()
}
