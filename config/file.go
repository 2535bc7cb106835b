package config

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// readFile reads the configuration file: "key = value" lines, "#" comments.
//
//	interval = 1000                # default sampling interval, ms
//	collector.cpu.interval = 500   # one collector's interval, ms
//	collector.memory.enabled = no
//	proc_root = /proc
//	sys_root = /sys
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
