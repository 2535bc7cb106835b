package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/rs/zerolog"
)

// The agent's heap keeps within memory_limit_mb: Go's garbage collector
// otherwise lets the heap grow to twice what it holds before it collects,
// and a process table of 10,000 processes, parsed anew every sample,
// would then cost the host twice its memory. Near the limit the collector
// works harder. When the agent holds more than the limit allows (a larger
// host, a longer history), the limit follows at limitHeadroom times what
// it holds, so the collector never runs flat out against it.

// limitHeadroom is how much above what the heap holds the limit stays
// when the configured one is too low for it.
const limitHeadroom = 1.2

// limitEvery is how often the limit is looked at again.
const limitEvery = 10 * time.Second

// keepMemoryLimit sets the heap's soft limit to the configured one, or
// limitHeadroom times the live heap when that is more, until ctx ends.
func keepMemoryLimit(ctx context.Context, configured int64, log zerolog.Logger) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	set := int64(-1)
	tick := time.NewTicker(limitEvery)
	defer tick.Stop()
	for {
		metrics.Read(sample)
		live := int64(0)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			live = int64(sample[0].Value.Uint64())
		}
		if limit := memoryLimit(configured, live); limit != set {
			debug.SetMemoryLimit(limit)
			if set >= 0 && (limit > configured) != (set > configured) {
				log.Info().Int64("limit_mb", limit>>20).Int64("live_mb", live>>20).Msg("memory limit")
			}
			set = limit
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// memoryLimit is the soft limit for a live heap of live bytes.
func memoryLimit(configured, live int64) int64 {
	return max(configured, int64(float64(live)*limitHeadroom))
}
