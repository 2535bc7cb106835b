package config

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/internal/regularfile"
)

// readFile reads the configuration file: "key = value" lines, "#"
// comments, each key one of Keys.
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

// setKey sets the key of Keys that key is written as.
func (c *Config) setKey(key, val string) error {
	for _, k := range Keys() {
		if part, ok := k.match(key); ok {
			return k.field.set(c, key, part, val)
		}
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
