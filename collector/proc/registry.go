package proc

import "github.com/pmdahostcache/pmdahostcache/engine"

// Registry lists this package's collectors for collector.Registry, after
// the host's and the MMV files'. It lists none yet.
func Registry() []engine.Registration {
	return nil
}
