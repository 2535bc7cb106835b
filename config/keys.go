package config

import (
	"regexp"
	"time"
)

// Reload says what a SIGHUP reload does with a changed key.
type Reload int

const (
	// Applied: the reload applies it at once.
	Applied Reload = iota
	// WaitsForRestart: the reload names it in the log and keeps the
	// running value until the agent restarts.
	WaitsForRestart
)

// Key is one key of the configuration file. The parser, the reload,
// --help, the example file and the docs all read it from Keys.
type Key struct {
	// Name is the key as written; NAME stands for a collector's name and
	// INDOM for an instance domain's, which may hold dots.
	Name string
	// Default is the value when the file says nothing, as it would be
	// written there; initial, when set, works it out on this host instead.
	Default string
	initial func() string
	// Example is a line showing a key with a NAME or INDOM in use.
	Example string
	// Help says what the key sets, in one line; Note says more, for the
	// example file.
	Help, Note string
	OnReload   Reload
	field      field
}

// Want says in words the values the key takes, as its error does.
func (k Key) Want() string { return k.field.want() }

// Line is the key as the examples show it: the example, or the default.
func (k Key) Line() string {
	if k.Example != "" {
		return k.Example
	}
	return k.Name + " = " + k.Default
}

// Keys is the configuration file's keys, in the order the docs list them.
func Keys() []Key {
	return append(scheduleKeys(), placeKeys()...)
}

// scheduleKeys are what and how often the collectors sample, and what
// they keep.
func scheduleKeys() []Key {
	return []Key{{
		Name: "interval", Default: "1000", OnReload: Applied,
		Help:  "default sampling interval",
		Note:  "A collector with an interval of its own keeps it.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.Interval }, millis()},
	}, {
		Name: "collector.NAME.interval", Example: "collector.cpu.interval = 500", OnReload: Applied,
		Help: "one collector's own interval",
		Note: "docs/metrics.md lists the shipped intervals.",
		field: perName[time.Duration]{
			func(c *Config) *map[string]time.Duration { return &c.Intervals }, millis()},
	}, {
		Name: "collector.NAME.enabled", Example: "collector.uptime.enabled = no", OnReload: WaitsForRestart,
		Help:  "no: leave the collector and its metrics out",
		field: perName[bool]{func(c *Config) *map[string]bool { return &c.Disabled }, yesNo(true)},
	}, {
		Name: "instances.INDOM.include", Example: "instances.network.all.include = ^eth",
		OnReload: WaitsForRestart,
		Help:     "publish only instances whose names match",
		Note: "For network.all it picks the interfaces network.all.* adds up " +
			"(by default the hardware ones).",
		field: perName[*regexp.Regexp]{
			func(c *Config) *map[string]*regexp.Regexp { return &c.Include }, pattern()},
	}, {
		Name: "instances.INDOM.exclude", Example: "instances.disk.exclude = ^(loop|ram)",
		OnReload: WaitsForRestart,
		Help:     "leave out instances whose names match",
		field: perName[*regexp.Regexp]{
			func(c *Config) *map[string]*regexp.Regexp { return &c.Exclude }, pattern()},
	}, {
		Name: "stale_intervals", Default: "5", OnReload: Applied,
		Help:  "data this many intervals old is withheld",
		field: single[int]{func(c *Config) *int { return &c.StaleIntervals }, whole(0, 1_000_000, "", "never")},
	}, {
		Name: "history", Default: "900", OnReload: WaitsForRestart,
		Help: "seconds of samples kept for client intervals",
		Note: "The rates and peaks over each client's interval come from them.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.History },
			scaled(whole(10, 86400, "seconds", ""), time.Second)},
	}, {
		Name: "history_max_mb", Default: "128", OnReload: WaitsForRestart,
		Help: "memory all histories may hold",
		Note: "Past it the widest sources keep a shorter history.",
		field: single[int64]{func(c *Config) *int64 { return &c.HistoryBudget },
			scaled(whole(1, 1<<20, "megabytes", ""), int64(1<<20))},
	}, {
		Name: "memory_limit_mb", Default: "90", OnReload: WaitsForRestart,
		Help: "memory the agent's heap keeps within",
		Note: "The garbage collector works harder near it. When the agent holds more " +
			"(a larger host, a longer history), the limit follows at 1.2 times what it holds. " +
			"0: no limit.",
		field: single[int64]{func(c *Config) *int64 { return &c.MemoryLimit },
			scaled(whole(0, 1<<20, "megabytes", ""), int64(1<<20))},
	}, {
		Name: "idle_after", Default: "300", OnReload: Applied,
		Help: "seconds unread before a source slows down",
		Note: "A source none of whose metrics a client has read " +
			"for this long samples idle_factor times less often. " +
			"It samples on the grid of that slow interval until a client reads it; " +
			"its history, peaks and flight recordings then hold one sample per slow interval, " +
			"and what it re-reads once a minute (disk attributes, mount device links, " +
			"hardware addresses) it re-reads every idle_factor minutes.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.IdleAfter },
			scaled(whole(0, 86400, "seconds", "never"), time.Second)},
	}, {
		Name: "idle_factor", Default: "10", OnReload: Applied,
		Help:  "how many times less often it then samples",
		field: single[int]{func(c *Config) *int { return &c.IdleFactor }, whole(2, 1000, "", "")},
	}, {
		Name: "reader_phases", Default: "8", OnReload: Applied,
		Help: "phases a source samples at for its readers",
		Note: "A source learns the clients that fetch its metrics at a steady period " +
			"and samples just before their fetches: " +
			"its grid follows one reader, and readers at other phases get extra samples, " +
			"up to this many phases in all, the grid's included. " +
			"8 serves six readers at distinct phases with room. " +
			"Other readers are served by the grid as it falls. " +
			"0 samples every source half a second past each whole second.",
		field: single[int]{func(c *Config) *int { return &c.ReaderPhases }, whole(0, 16, "", "fixed grid")},
	}, {
		Name: "fresh_within", Default: "20", OnReload: Applied,
		Help: "milliseconds old a fetch's samples may be",
		Note: "PCP's clients compute rates from the counters and " +
			"pmcd's time of each fetch, so a fetch is answered " +
			"from samples at most this old: a source whose " +
			"newest sample is older is sampled for the fetch. " +
			"Fetches that arrive together share one sample, " +
			"and no source is sampled for fetches more than once in this time. " +
			"0 answers every fetch from the samples already taken.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.FreshWithin },
			scaled(whole(0, 1000, "milliseconds", "off"), time.Millisecond)},
	}, {
		Name: "fetch_wait", Default: "100", OnReload: Applied,
		Help: "milliseconds a fetch waits for fresh samples",
		Note: "Past this a fetch is answered from the samples already taken " +
			"and counted in hostcache.control.fresh.misses. " +
			"A source that misses it is not waited for again until it publishes a sample, " +
			"so a blocked read costs one fetch this long, once.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.FetchWait },
			scaled(whole(1, 2000, "milliseconds", ""), time.Millisecond)},
	}, {
		Name: "processors", Default: "1", OnReload: Applied,
		Help: "Go processors (2 while an archive is written)",
		Note: "The Go runtime runs the agent's goroutines on this many. " +
			"The GOMAXPROCS environment variable, when set, stands over it. " +
			"One wakes the fewest threads at each sample tick; a fetch arriving during a tick " +
			"waits for that tick's collectors at worst.",
		field: single[int]{func(c *Config) *int { return &c.Processors }, whole(1, 1024, "", "")},
	}, {
		Name: "log_format", Default: LogPCP, OnReload: WaitsForRestart,
		Help:  "the log as PCP's agents write theirs, or JSON",
		Note:  "json writes one JSON object a line.",
		field: single[string]{func(c *Config) *string { return &c.LogFormat }, oneOf(LogPCP, LogJSON)},
	}}
}

// placeKeys are where the agent reads and writes, and who may store.
func placeKeys() []Key {
	return []Key{{
		Name: "proc_root", Default: "/proc", OnReload: WaitsForRestart,
		Help:  "where /proc is (-r)",
		field: single[string]{func(c *Config) *string { return &c.ProcRoot }, filePath()},
	}, {
		Name: "sys_root", Default: "/sys", OnReload: WaitsForRestart,
		Help:  "where /sys is (-s)",
		field: single[string]{func(c *Config) *string { return &c.SysRoot }, filePath()},
	}, {
		Name: "keep_files", Default: "no", OnReload: WaitsForRestart,
		Help: "yes: keep files open below plain trees too",
		Note: "Files read every sample are kept open on procfs and sysfs; " +
			"yes keeps them open below a tree of plain files standing in for them, rewritten in place, " +
			"as make bench's generated hosts are.",
		field: single[bool]{func(c *Config) *bool { return &c.KeepFiles }, yesNo(false)},
	}, {
		Name: "id_dir", Default: "/var/lib/pcp/config/pmda", initial: defaultIDDir, OnReload: WaitsForRestart,
		Help:  "where stable instance ids are kept",
		Note:  "By default $PCP_VAR_DIR/config/pmda.",
		field: single[string]{func(c *Config) *string { return &c.IDDir }, filePath()},
	}, {
		Name: "record_dir", Default: "/var/log/pcp/pmlogger/HOSTNAME", initial: defaultRecordDir,
		OnReload: WaitsForRestart,
		Help:     "where the flight recorder writes",
		Note:     "By default pmlogger's directory for this host.",
		field:    single[string]{func(c *Config) *string { return &c.RecordDir }, filePath()},
	}, {
		Name: "record_max_mb", Default: "256", OnReload: WaitsForRestart,
		Help: "megabytes the recorder's archives may take",
		Note: "After each archive its oldest go. " +
			"It removes only files named as it names them and owned by the agent's user. " +
			"An archive that alone would be larger is not kept.",
		field: single[int64]{func(c *Config) *int64 { return &c.RecordMaxBytes },
			scaled(whole(1, 1<<20, "megabytes", ""), int64(1<<20))},
	}, {
		Name: "record_min_gap", Default: "60", OnReload: WaitsForRestart,
		Help: "seconds between one user's recordings",
		Note: "A request sooner gets PM_ERR_AGAIN.",
		field: single[time.Duration]{func(c *Config) *time.Duration { return &c.RecordMinGap },
			scaled(whole(0, 86400, "seconds", "none"), time.Second)},
	}, {
		Name: "mmv_dir", Default: "/var/lib/pcp/tmp/mmv", initial: defaultMMVDir, OnReload: WaitsForRestart,
		Help: "where programs write MMV files",
		Note: "By default $PCP_TMP_DIR/mmv, where libpcp_mmv, " +
			"Parfait, speed and PCP's Python module write them. " +
			"Their metrics are hostcache.mmv.FILE.METRIC.",
		field: single[string]{func(c *Config) *string { return &c.MMVDir }, filePath()},
	}, {
		Name: "mmv_files", Default: "256", OnReload: WaitsForRestart,
		Help:  "MMV files read at most",
		Note:  "Past it a new file is skipped, with a warning in the log, until another goes.",
		field: single[int]{func(c *Config) *int { return &c.MMVFiles }, whole(1, 256, "files", "")},
	}, {
		Name: "mmv_metrics", Default: "1024", OnReload: WaitsForRestart,
		Help:  "metrics an MMV file may have",
		Note:  "A file with more is skipped, with a warning in the log.",
		field: single[int]{func(c *Config) *int { return &c.MMVMetrics }, whole(1, 65536, "metrics", "")},
	}, {
		Name: "mmv_values", Default: "65536", OnReload: WaitsForRestart,
		Help:  "values an MMV file may have",
		Note:  "A file with more is skipped, with a warning in the log.",
		field: single[int]{func(c *Config) *int { return &c.MMVValues }, whole(1, 1<<20, "values", "")},
	}, {
		Name: "store_users", Default: "root", OnReload: WaitsForRestart,
		Help: "who may pmstore: these users",
		Note: "And users whose primary group is in store_groups. " +
			"pmcd tells the agent who a local client is; a remote client is always refused.",
		field: single[[]uint32]{func(c *Config) *[]uint32 { return &c.StoreUsers }, ids("user", lookupUser)},
	}, {
		Name: "store_groups", Default: "pcp", initial: defaultStoreGroups, OnReload: WaitsForRestart,
		Help:  "or users of these primary groups",
		Note:  "By default $PCP_GROUP (pcp), when the host has it.",
		field: single[[]uint32]{func(c *Config) *[]uint32 { return &c.StoreGroups }, ids("group", lookupGroup)},
	}}
}
