package main

import (
	"context"
	"os"
	"runtime/pprof"
	"time"

	"github.com/rs/zerolog"
)

// profileFor writes a CPU profile of the agent's first d of running to
// path, for -D profile: how a developer sees where background sampling
// spends its time on a real host.
func profileFor(ctx context.Context, path string, d time.Duration, log zerolog.Logger) {
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
}
