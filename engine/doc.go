// Package engine is the sampling engine: it runs every collector on its
// schedule, turns counters into rates over the true interval between two
// samples, publishes each sample into the cache, and serves the agent's own
// controls and self-metrics (hostcache.control.*), pmstore included.
//
// It knows schedules, counters and rates; it knows neither /proc (that is
// the collectors' and the kernel package's) nor PDUs (that is pmda's).
//
// A Runner holds one entry per collector. Each of the runner's concerns is
// a type in a file named after it, and the entry holds its part in each
// as a named field:
//
//   - runner.go: the runner and its entries, and how they are wired to the cache.
//   - schedule.go: each collector's interval, its loop on the grid, the backoff after panics.
//   - sampling.go: one sample, from the collector to the front, and its self-metrics.
//   - idle.go: sources no client reads sample less often.
//   - budget.go: the memory all histories share.
//   - follower.go, readers.go, phase.go: following a source's periodic readers.
//   - dynamic.go, carry.go: collectors whose metrics change while the agent runs.
//   - fresh.go, fresh_age.go: fetches answered with fresh samples;
//     present.go: the instances as of a fetch its samples are late for.
//   - history.go, bound.go: each source's recent samples, and the steps that count.
//   - derived.go: the metrics computed over a client's interval (rates, Derived figures, peaks).
//   - window.go: the span of samples a figure is computed over.
//   - interval_figures.go, clients.go: those figures for the client that fetches them.
//   - control.go, control_fresh.go, pmstore.go, record.go: the agent's own metrics and controls.
//
// A reader, in this package, is always a pmcd client that fetches a
// source's metrics, most often periodically (pmlogger, pmie), as
// hostcache.control.collector.readers counts them: the engine learns when
// each fetches and has a fresh sample waiting. What computes a client's
// figures over its interval is intervalFigures.
package engine
