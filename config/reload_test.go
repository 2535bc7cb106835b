package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// loadText loads a configuration file with the given text.
func loadText(t *testing.T, text string) Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostcache.conf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load([]string{"-c", path})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A reload applies the intervals and the staleness limit and keeps what
// only a restart can change, naming each such key.
func TestNeedsRestartAndKeep(t *testing.T) {
	running := loadText(t, "interval = 1000\nhistory = 900\ninstances.disk.exclude = ^loop\n")
	next := loadText(t, "interval = 2000\ncollector.cpu.interval = 500\nstale_intervals = 3\n"+
		"history = 60\nlog_format = json\ncollector.swap.enabled = no\ninstances.disk.exclude = ^ram\nprocessors = 2\n")
	want := []string{"history", "log_format", "collector.swap.enabled", "instances.disk.exclude"}
	if got := NeedsRestart(running, next); !slices.Equal(got, want) {
		t.Errorf("NeedsRestart = %v, want %v", got, want)
	}
	kept := Keep(running, next)
	if kept.Interval != 2*time.Second || kept.Intervals["cpu"] != 500*time.Millisecond || kept.StaleIntervals != 3 ||
		kept.Processors != 2 {
		t.Errorf("the schedule was not taken: %v %v %d %d", kept.Interval, kept.Intervals, kept.StaleIntervals, kept.Processors)
	}
	if kept.History != running.History || kept.LogFormat != running.LogFormat || kept.Disabled["swap"] ||
		kept.Exclude["disk"].String() != "^loop" {
		t.Errorf("a restart-only setting was taken: %+v", kept)
	}
	if got := NeedsRestart(running, running); len(got) != 0 {
		t.Errorf("an unchanged configuration needs a restart for %v", got)
	}
}
