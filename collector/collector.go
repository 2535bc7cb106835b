// Package collector samples /proc (through procfs) on background tickers and
// publishes what it reads into the cache. It knows units, counters and rates;
// it never sees a PDU.
package collector

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Collector reads one source (a /proc file or a family of them).
type Collector interface {
	// Name is the collector's instance name in hostcache.control metrics.
	Name() string
	// Source lists the metrics and instance domains the collector publishes.
	Source() cache.Source
	// Sample reads the source once and fills b. now is the sample time, taken
	// from the monotonic clock, for rates. An error means this sample failed
	// and nothing is published from it.
	Sample(b *cache.Builder, now time.Time) error
}

// Paths holds the roots a collector reads below, so tests and containers can
// point them elsewhere.
type Paths struct {
	Proc string // normally /proc
	Sys  string // normally /sys
}

// Factory builds a collector. It opens its procfs view here, so a bad root
// fails at start-up rather than on every tick.
type Factory func(p Paths) (Collector, error)

// Registration names a collector and how to build it.
type Registration struct {
	Name    string
	Factory Factory
}

// Registry lists every collector in a fixed order: the order of their
// instances in hostcache.control metrics and of their logs.
func Registry() []Registration {
	return []Registration{
		{"cpu", NewCPUCollector},
		{"memory", NewMemoryCollector},
		{"load", NewLoadCollector},
		{"uptime", NewUptimeCollector},
	}
}
