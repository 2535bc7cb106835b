package main

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/rs/zerolog"
)

// profileFor writes a CPU profile of the agent's first d of running to
// base.cpu.pprof, then a heap profile to base.heap.pprof, for -D profile:
// how a developer sees where background sampling spends its time and
// memory on a real host.
func profileFor(ctx context.Context, base string, d time.Duration, log zerolog.Logger) {
	path := base + ".cpu.pprof"
	f, err := os.Create(path)
	if err != nil {
		log.Warn().Err(err).Msg("cpu profile")
		return
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Warn().Err(err).Msg("cpu profile")
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
	pprof.StopCPUProfile()
	log.Info().Str("file", path).Msg("cpu profile written")
	writeHeapProfile(base+".heap.pprof", log)
}

// writeHeapProfile writes what the heap holds once the first minute's
// samples are in: where the agent's memory goes on a real host.
func writeHeapProfile(path string, log zerolog.Logger) {
	f, err := os.Create(path)
	if err != nil {
		log.Warn().Err(err).Msg("heap profile")
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		log.Warn().Err(err).Msg("heap profile")
		return
	}
	log.Info().Str("file", path).Msg("heap profile written")
}
