package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// The run queue counts of proc.runq.*, by state. Every client may read
// them, as pmdaproc's.
const (
	runqRunnable = iota
	runqBlocked
	runqSleeping
	runqStopped
	runqSwapped
	runqDefunct
	runqUnknown
	runqKernel
	runqStates
)

var runqRows = [runqStates]cache.Desc{
	runqRow("hostcache.proc.runq.runnable", runqRunnable),
	runqRow("hostcache.proc.runq.blocked", runqBlocked),
	runqRow("hostcache.proc.runq.sleeping", runqSleeping),
	runqRow("hostcache.proc.runq.stopped", runqStopped),
	runqRow("hostcache.proc.runq.swapped", runqSwapped),
	runqRow("hostcache.proc.runq.defunct", runqDefunct),
	runqRow("hostcache.proc.runq.unknown", runqUnknown),
	runqRow("hostcache.proc.runq.kernel", runqKernel),
}

func runqRow(name string, item uint32) cache.Desc {
	return engine.Row{Name: name, Cluster: clusterRunq, Item: item, Type: cache.TypeI32, Sem: cache.SemInstant,
		Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc()
}

// pfKthread is the stat flag of a kernel thread (PF_KTHREAD).
const pfKthread = 0x00200000

// runqState sorts a process into a run queue count. pmdaproc counts a
// process with no address space (a kernel thread) as swapped and never
// counts kernel: here kernel threads are counted as kernel, and swapped
// holds the user processes with nothing resident.
func runqState(r *record) int {
	switch {
	case r.stat.State == 'Z':
		return runqDefunct
	case r.stat.Flags&pfKthread != 0:
		return runqKernel
	case r.stat.VSize == 0 || r.stat.RSS == 0:
		return runqSwapped
	}
	switch r.stat.State {
	case 'R':
		return runqRunnable
	case 'S':
		return runqSleeping
	case 'T', 't':
		return runqStopped
	case 'D':
		return runqBlocked
	}
	return runqUnknown
}
