package config

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
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
//	id_dir = /var/lib/pcp/config/pmda
//	instances.disk.exclude = ^(loop|ram)   # by instance domain name
//	instances.interface.include = ^(eth|en)
//
// A missing default file is fine; a missing explicit one, or any line we do
// not understand, is an error naming the line: the PMDA refuses to start
// rather than guess.
func (c *Config) readFile(path string, explicit bool) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil
	}
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("%s:%d: want key = value, got %q", path, n, line)
		}
		if err := c.setKey(strings.TrimSpace(key), strings.TrimSpace(val)); err != nil {
			return fmt.Errorf("%s:%d: %v", path, n, err)
		}
	}
	return sc.Err()
}

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
	case "id_dir":
		c.IDDir = val
		return nil
	case "history":
		secs, err := strconv.Atoi(val)
		if err != nil || secs < 10 || secs > 86400 {
			return fmt.Errorf("history: want whole seconds from 10 to 86400, got %q", val)
		}
		c.History = time.Duration(secs) * time.Second
		return nil
	case "history_max_mb":
		mb, err := strconv.Atoi(val)
		if err != nil || mb < 1 || mb > 1<<20 {
			return fmt.Errorf("history_max_mb: want whole megabytes from 1 to 1048576, got %q", val)
		}
		c.HistoryBudget = int64(mb) << 20
		return nil
	case "stale_intervals":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return fmt.Errorf("stale_intervals: want a whole number >= 0, got %q", val)
		}
		c.StaleIntervals = n
		return nil
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
