package proc

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Registry lists this package's collectors for collector.Registry, after
// the host's and the MMV files' ones: the process collector, then the
// groups' collectors, which read the processes it lists (board).
func Registry() []engine.Registration {
	shared := &board{}
	regs := []engine.Registration{
		// Every process's files: the costliest source, read as often as
		// pmlogger's busiest configurations log it; a fetch that finds
		// the sample older than fresh_within has it sampled anew.
		{Name: "proc", Factory: func(env engine.Env) (engine.Collector, error) {
			return newProcessCollector(env, shared)
		}, Interval: 10 * time.Second},
	}
	// Every thread, for the clients that ask pmdaproc's controls for
	// threads: on demand, so it reads nothing until one does.
	regs = append(regs, engine.Registration{Name: "proc_threads", Factory: newThreadCollector,
		Interval: 10 * time.Second})
	for _, g := range groups {
		regs = append(regs, engine.Registration{Name: g.name, Factory: groupFactory(g.name, g.make, shared),
			Interval: 10 * time.Second})
	}
	return regs
}

// groups are the costly or seldom-read per-process files, a collector
// each (group.go), so that reading one costs nothing for the others:
// pcp-ps reads wchan_s, atop the cgroups and smaps.pss, htop the files.
var groups = []struct {
	name string
	make func() group
}{
	{"proc_wchan", newWchanGroup},
	{"proc_cgroup", newCgroupGroup},
	{"proc_files", newFilesGroup},
	{"proc_fd", func() group { return &fdGroup{} }},
	{"proc_smaps", func() group { return &smapsGroup{} }},
	{"proc_environ", newEnvironGroup},
	{"proc_maps", newMapsGroup},
}
