package config

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/regularfile"
)

// readFile reads the configuration file: "key = value" lines, "#" comments.
//
//	interval = 1000                # default sampling interval, ms
//	collector.cpu.interval = 500   # one collector's interval, ms
//	collector.memory.enabled = no
//	proc_root = /proc
//	sys_root = /sys
//	stale_intervals = 5            # withhold data this many intervals old
//	history = 900                  # seconds of samples kept for client intervals
//	history_max_mb = 128           # memory all histories may hold; less history past it
//	idle_after = 300               # seconds unread before a source slows down; 0 never
//	idle_factor = 10               # how much less often it then samples
//	processors = 1                 # Go processors for the goroutines (2 while an archive is written)
//	log_format = pcp               # or json
//	id_dir = /var/lib/pcp/config/pmda
//	record_max_mb = 256            # bytes the flight recorder's archives may take
//	record_min_gap = 60            # seconds between two recordings one user asks for
//	store_users = root             # who may pmstore: users and primary groups,
//	store_groups = pcp             # by name or number, resolved at start
//	instances.disk.exclude = ^(loop|ram)   # by instance domain name
//	instances.interface.include = ^(eth|en)
//
// A missing default file is fine; a missing explicit one, or any line we do
// not understand or whose value is out of range, is an error naming the
// file and line: the PMDA refuses to start rather than guess. Lines may be
// of any length; the file itself at most maxConfigSize.
func (c *Config) readFile(path string, explicit bool) error {
	data, err := regularfile.Read(path, maxConfigSize) // a FIFO is refused, not waited on
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil
	}
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	for i, raw := range strings.Split(string(data), "\n") {
		where := fmt.Sprintf("%s:%d", path, i+1)
		line, _, _ := strings.Cut(raw, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("%s: want key = value, got %.80q", where, line)
		}
		key = strings.TrimSpace(key)
		if err := c.setKey(key, strings.TrimSpace(val)); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		c.Origins[key] = where
	}
	return nil
}

// maxConfigSize bounds the configuration file: a few lines in practice.
const maxConfigSize = 1 << 20

func (c *Config) setKey(key, val string) error {
	switch key {
	case "interval":
		iv, err := parseMillis(val)
		c.Interval = iv
		return err
	case "proc_root":
		c.ProcRoot = val
		return nil
	case "sys_root":
		c.SysRoot = val
		return nil
	case "keep_files":
		on, err := parseBool(val)
		if err != nil {
			return fmt.Errorf("keep_files: want yes or no, got %q", val)
		}
		c.KeepFiles = on
		return nil
	case "id_dir":
		c.IDDir = val
		return nil
	case "record_dir":
		c.RecordDir = val
		return nil
	case "history":
		secs, err := wholeNumber(key, val, 10, 86400, "whole seconds from 10 to 86400")
		c.History = time.Duration(secs) * time.Second
		return err
	case "log_format":
		if val != LogPCP && val != LogJSON {
			return fmt.Errorf("log_format: want %s or %s, got %q", LogPCP, LogJSON, val)
		}
		c.LogFormat = val
		return nil
	case "history_max_mb":
		mb, err := wholeNumber(key, val, 1, 1<<20, "whole megabytes from 1 to 1048576")
		c.HistoryBudget = int64(mb) << 20
		return err
	case "idle_after":
		secs, err := wholeNumber(key, val, 0, 86400, "whole seconds from 0 (never) to 86400")
		c.IdleAfter = time.Duration(secs) * time.Second
		return err
	case "idle_factor":
		n, err := wholeNumber(key, val, 2, 1000, "a whole number from 2 to 1000")
		c.IdleFactor = n
		return err
	case "processors":
		n, err := wholeNumber(key, val, 1, 1024, "a whole number from 1 to 1024")
		c.Processors = n
		return err
	case "stale_intervals":
		n, err := wholeNumber(key, val, 0, 1_000_000, "a whole number from 0 to 1000000")
		c.StaleIntervals = n
		return err
	case "record_max_mb":
		mb, err := wholeNumber(key, val, 1, 1<<20, "whole megabytes from 1 to 1048576")
		c.RecordMaxBytes = int64(mb) << 20
		return err
	case "record_min_gap":
		secs, err := wholeNumber(key, val, 0, 86400, "whole seconds from 0 (none) to 86400")
		c.RecordMinGap = time.Duration(secs) * time.Second
		return err
	case "store_users":
		ids, err := resolveIDs(key, val, lookupUser)
		c.StoreUsers = ids
		return err
	case "store_groups":
		ids, err := resolveIDs(key, val, lookupGroup)
		c.StoreGroups = ids
		return err
	}
	if rest, ok := strings.CutPrefix(key, "instances."); ok {
		return c.setPattern(rest, val)
	}
	rest, ok := strings.CutPrefix(key, "collector.")
	name, field, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || name == "" {
		return fmt.Errorf("unknown key %q", key)
	}
	switch field {
	case "interval":
		iv, err := parseMillis(val)
		c.Intervals[name] = iv
		return err
	case "enabled":
		on, err := parseBool(val)
		if err != nil {
			return fmt.Errorf("collector.%s.enabled: want yes or no, got %q", name, val)
		}
		c.Disabled[name] = !on
		return nil
	}
	return fmt.Errorf("unknown key %q", key)
}

// wholeNumber reads a setting's whole number in [lo, hi]; the error says
// what the setting wants in words (want), units and all.
func wholeNumber(key, val string, lo, hi int, want string) (int, error) {
	n, err := strconv.Atoi(val)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want %s, got %q", key, want, val)
	}
	return n, nil
}

// parseBool accepts yes/no as well as Go's true/false spellings.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "on":
		return true, nil
	case "no", "off":
		return false, nil
	}
	return strconv.ParseBool(s)
}

// setPattern reads instances.<indom>.include / .exclude.
func (c *Config) setPattern(key, val string) error {
	// The indom name may itself contain dots ("network.all").
	dot := strings.LastIndex(key, ".")
	if dot <= 0 {
		return fmt.Errorf("unknown key %q", "instances."+key)
	}
	indom, which := key[:dot], key[dot+1:]
	if indom == "" {
		return fmt.Errorf("unknown key %q", "instances."+key)
	}
	re, err := regexp.Compile(val)
	if err != nil {
		return fmt.Errorf("instances.%s: %v", key, err)
	}
	switch which {
	case "include":
		c.Include[indom] = re
	case "exclude":
		c.Exclude[indom] = re
	default:
		return fmt.Errorf("unknown key %q", "instances."+key)
	}
	return nil
}
