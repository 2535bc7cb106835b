package recorder

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// archiveName is where an archive recorded at t goes: named after the
// agent and the time, as pmlogger names its archives after the date, with
// a suffix when a name is taken (two requests within a second).
func archiveName(dir string, t time.Time) string {
	base := filepath.Join(dir, "hostcache-"+t.Format("20060102.15.04.05"))
	name := base
	for n := 1; exists(name); n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	return name
}

func exists(archive string) bool {
	for _, ext := range []string{".meta", ".index", ".0"} {
		if _, err := os.Lstat(archive + ext); err == nil {
			return true
		}
	}
	return false
}

// timezone is the archive label's time zone, as PCP writes it: $TZ when
// set, else the zone's abbreviation with its POSIX offset ("UTC", "CET-1",
// "IST-5:30"), which is west of Greenwich positive.
func timezone(t time.Time) string {
	if tz := os.Getenv("TZ"); tz != "" {
		return tz
	}
	name, off := t.Zone()
	if off == 0 {
		return name
	}
	sign := "-"
	if off < 0 {
		sign, off = "+", -off
	}
	h, m := off/3600, off%3600/60
	if m == 0 {
		return fmt.Sprintf("%s%s%d", name, sign, h)
	}
	return fmt.Sprintf("%s%s%d:%02d", name, sign, h, m)
}
