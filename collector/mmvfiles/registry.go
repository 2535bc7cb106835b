package mmvfiles

import "github.com/pmdahostcache/pmdahostcache/engine"

// Registry lists this package's collector for collector.Registry.
// Instrumented programs' MMV files are sampled at the default interval, as
// the host's own figures: their counters' rates and peaks are the point.
func Registry() []engine.Registration {
	return []engine.Registration{{Name: "mmv", Factory: NewCollector}}
}
