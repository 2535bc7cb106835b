// Package engine is the sampling engine: it runs every collector on its
// schedule, turns counters into rates over the true interval between two
// samples, publishes each sample into the cache, and serves the agent's own
// controls and self-metrics (hostcache.control.*), pmstore included.
//
// It knows schedules, counters and rates; it knows neither /proc (that is
// the collectors' and the kernel package's) nor PDUs (that is pmda's).
package engine
