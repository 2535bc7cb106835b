package proc

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Registry lists this package's collectors for collector.Registry, after
// the host's and the MMV files' ones.
func Registry() []engine.Registration {
	return []engine.Registration{
		// Every process's files: the costliest source, read as often as
		// pmlogger's busiest configurations log it; a fetch that finds
		// the sample older than fresh_within has it sampled anew.
		{Name: "proc", Factory: NewProcessCollector, Interval: 10 * time.Second},
	}
}
