package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// reloader re-reads the configuration on SIGHUP, as PCP's daemons do, and
// applies the keys config.Keys marks Applied (the intervals, the staleness
// limit, the idle back-off, the reader phases, the processors), without losing a collector's
// history, its rates or its instance ids. Other changes are named in the
// log and wait for a restart; a file with an error changes nothing.
type reloader struct {
	args    []string // the command line, parsed again so it keeps precedence
	running config.Config
	runner  *engine.Runner
	procs   *processors
	log     zerolog.Logger
}

// watch reloads on every SIGHUP until ctx ends.
func (rl *reloader) watch(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			rl.reload()
		}
	}
}

// reload reads the configuration again and applies it.
func (rl *reloader) reload() error {
	next, err := config.Load(rl.args)
	if err == nil {
		err = next.Check(knownNames())
	}
	if err != nil {
		rl.log.Error().Err(err).Msg("configuration not reloaded: the running one stays in force")
		return err
	}
	for _, key := range config.NeedsRestart(rl.running, next) {
		ev := rl.log.Warn().Str("key", key)
		if at, ok := next.Origins[key]; ok {
			ev = ev.Str("at", at)
		}
		ev.Msg("configuration changed: takes effect at the next restart")
	}
	rl.running = config.Keep(rl.running, next)
	rl.runner.Reconfigure(schedule(rl.running))
	procs := rl.procs.set(rl.running.Processors)
	rl.log.Info().Str("file", next.ConfigFile).Dur("interval", next.Interval).Int("processors", procs).
		Msg("configuration reloaded")
	return nil
}

// schedule is the sampling schedule cfg asks for.
func schedule(cfg config.Config) engine.Schedule {
	return engine.Schedule{
		Default: cfg.Interval, Intervals: collectorIntervals(cfg), StaleIntervals: cfg.StaleIntervals,
		History: cfg.History, HistoryBudget: cfg.HistoryBudget,
		IdleAfter: cfg.IdleAfter, IdleFactor: cfg.IdleFactor, ReaderPhases: cfg.ReaderPhases,
		FreshWithin: cfg.FreshWithin, FetchWait: cfg.FetchWait,
	}
}

// collectorIntervals are the enabled collectors' own intervals, configured
// or shipped (netproto's 5 s), where they are not the default's.
func collectorIntervals(cfg config.Config) map[string]time.Duration {
	intervals := map[string]time.Duration{}
	for _, reg := range collector.Registry() {
		if cfg.Disabled[reg.Name] {
			continue
		}
		if iv, set := cfg.Intervals[reg.Name]; set {
			intervals[reg.Name] = iv
		} else if reg.Interval != 0 {
			intervals[reg.Name] = reg.Interval
		}
	}
	return intervals
}
