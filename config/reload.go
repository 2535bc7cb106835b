package config

import (
	"maps"
	"regexp"
	"slices"
)

// NeedsRestart lists the settings that differ between the running
// configuration and a re-read one but take effect only at a restart: which
// collectors exist and which instances they keep (the namespace and the
// instance tables are built once), where the agent reads and writes, how
// its log is written, how much history its rings were sized for, the
// flight recorder's bounds and who may store. The
// intervals, the staleness limit, the idle back-off and the number of
// processors apply at once.
func NeedsRestart(running, next Config) []string {
	var keys []string
	differ := func(key string, changed bool) {
		if changed {
			keys = append(keys, key)
		}
	}
	differ("proc_root", running.ProcRoot != next.ProcRoot)
	differ("sys_root", running.SysRoot != next.SysRoot)
	differ("keep_files", running.KeepFiles != next.KeepFiles)
	differ("id_dir", running.IDDir != next.IDDir)
	differ("record_dir", running.RecordDir != next.RecordDir)
	differ("history", running.History != next.History)
	differ("history_max_mb", running.HistoryBudget != next.HistoryBudget)
	differ("log_format", running.LogFormat != next.LogFormat)
	differ("record_max_mb", running.RecordMaxBytes != next.RecordMaxBytes)
	differ("record_min_gap", running.RecordMinGap != next.RecordMinGap)
	differ("store_users", !slices.Equal(running.StoreUsers, next.StoreUsers))
	differ("store_groups", !slices.Equal(running.StoreGroups, next.StoreGroups))
	for _, name := range sortedKeys(running.Disabled, next.Disabled) {
		differ("collector."+name+".enabled", running.Disabled[name] != next.Disabled[name])
	}
	for _, name := range sortedKeys(running.Include, next.Include) {
		differ("instances."+name+".include", !samePattern(running.Include[name], next.Include[name]))
	}
	for _, name := range sortedKeys(running.Exclude, next.Exclude) {
		differ("instances."+name+".exclude", !samePattern(running.Exclude[name], next.Exclude[name]))
	}
	return keys
}

func samePattern(a, b *regexp.Regexp) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.String() == b.String()
}

// Keep returns next with every setting NeedsRestart names taken from
// running: what a reload leaves in force.
func Keep(running, next Config) Config {
	kept := running
	kept.Interval = next.Interval
	kept.Intervals = maps.Clone(next.Intervals)
	kept.StaleIntervals = next.StaleIntervals
	kept.IdleAfter, kept.IdleFactor = next.IdleAfter, next.IdleFactor
	kept.Processors = next.Processors
	kept.Origins = maps.Clone(next.Origins)
	return kept
}
