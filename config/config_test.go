package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseArgsPCPStyle(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir()) // no default config file there
	c, err := Load([]string{"-d396", "-l", "/tmp/x.log", "-Dpdu,appl0", "-U", "nobody", "-t", "250", "-r", "/fake/proc"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Domain != 396 || c.LogFile != "/tmp/x.log" || !c.HasDebug("pdu") || c.User != "nobody" ||
		c.Interval != 250*time.Millisecond || c.ProcRoot != "/fake/proc" || c.IPC != IPCPipe {
		t.Errorf("parsed %+v", c)
	}
	c, err = Load([]string{"-d", "200", "-u", "/run/h.sock"})
	if err != nil || c.IPC != IPCUnix || c.SocketPath != "/run/h.sock" {
		t.Errorf("socket mode: %+v %v", c, err)
	}
	c, err = Load([]string{"-i", "2078"})
	if err != nil || c.IPC != IPCInet || c.Port != 2078 {
		t.Errorf("inet mode: %+v %v", c, err)
	}
}

func TestParseArgsErrors(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	for _, args := range [][]string{{"-d"}, {"-d", "x"}, {"-d", "511"}, {"-z"}, {"stray"}, {"-t", "10"}} {
		if _, err := Load(args); err == nil {
			t.Errorf("Load(%q) accepted", args)
		}
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(path, []byte("# comment\ninterval = 2000\ncollector.cpu.interval = 500 # fast\ncollector.uptime.enabled = no\nproc_root = /p\nkeep_files = yes\n"+
		"instances.network.all.include = ^eth\ninstances.disk.exclude = ^loop\n"), 0o644)
	c, err := Load([]string{"-c", path})
	if err != nil {
		t.Fatal(err)
	}
	if c.Interval != 2*time.Second || c.Intervals["cpu"] != 500*time.Millisecond || !c.Disabled["uptime"] || c.ProcRoot != "/p" || !c.KeepFiles ||
		c.Include["network.all"] == nil || !c.Exclude["disk"].MatchString("loop0") {
		t.Errorf("parsed %+v", c)
	}
}

// TestConfigFileErrorsNameTheLine: bad configuration stops start-up with
// the file and line, rather than a guess.
func TestConfigFileErrorsNameTheLine(t *testing.T) {
	dir := t.TempDir()
	for i, body := range []string{"interval = 2000\nbogus\n", "interval = 2000\nnosuch = 1\n",
		"\ncollector.cpu.enabled = maybe\n", "\ncollector.cpu.interval = soon\n"} {
		path := filepath.Join(dir, "c.conf")
		os.WriteFile(path, []byte(body), 0o644)
		_, err := Load([]string{"-c", path})
		if err == nil || !strings.Contains(err.Error(), path+":2:") {
			t.Errorf("case %d: error %v does not name line 2", i, err)
		}
	}
	if _, err := Load([]string{"-c", filepath.Join(dir, "missing.conf")}); err == nil {
		t.Error("a missing explicit config file was accepted")
	}
}

// Every bad line is refused with its file and line, before it can take
// effect; values are range-checked where they are read, and never wrap.
func TestConfigErrorsNameFileAndLine(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	for _, c := range []struct{ name, text, want string }{
		{"interval below range", "# ok\ninterval = 99\n", ":2: interval 99 ms outside 100..3600000"},
		{"collector interval below range", "collector.cpu.interval = 50\n", ":1: interval 50 ms outside"},
		{"interval that would wrap", "\n\ninterval = 18446744073810\n", ":3: interval 18446744073810 ms outside"},
		{"interval beyond 64 bits", "interval = 99999999999999999999\n", ":1: interval \"99999999999999999999\" outside"},
		{"duration out of range", "interval = 2h\n", ":1: interval 2h0m0s outside"},
		{"stale_intervals overflow", "stale_intervals = 99999999999999999999\n", ":1: stale_intervals: want"},
		{"history out of range", "history = 5\n", ":1: history: want"},
		{"idle_after negative", "idle_after = -1\n", ":1: idle_after: want"},
		{"idle_factor of 1", "\nidle_factor = 1\n", ":2: idle_factor: want"},
		{"not key = value", "interval 1000\n", ":1: want key = value"},
		{"bad regexp", "instances.disk.exclude = (\n", ":1: instances.disk.exclude"},
		{"keep_files not yes or no", "keep_files = maybe\n", ":1: keep_files: want"},
		{"processors negative", "processors = -1\n", ":1: processors: want"},
		{"processors zero", "processors = 0\n", ":1: processors: want"},
		{"processors not a number", "\nprocessors = two\n", ":2: processors: want"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hostcache.conf")
			os.WriteFile(path, []byte(c.text), 0o644)
			_, err := Load([]string{"-c", path})
			if err == nil || !strings.Contains(err.Error(), path+c.want) {
				t.Errorf("error %v, want %s%s", err, path, c.want)
			}
		})
	}
}

// A long line (a comment of 100 KB) is a line; a FIFO given as the file is
// refused at once, not waited on.
func TestConfigLongLinesAndSpecialFiles(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	dir := t.TempDir()
	path := filepath.Join(dir, "long.conf")
	os.WriteFile(path, []byte("# "+strings.Repeat("x", 100<<10)+"\ninterval = 500\n"), 0o644)
	if c, err := Load([]string{"-c", path}); err != nil || c.Interval != 500*time.Millisecond {
		t.Errorf("long comment: %v %v", c.Interval, err)
	}
	fifo := filepath.Join(dir, "fifo.conf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load([]string{"-c", fifo}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a FIFO as the configuration file blocked start-up")
	}
	big := filepath.Join(dir, "big.conf")
	os.WriteFile(big, make([]byte, 2<<20), 0o644)
	if _, err := Load([]string{"-c", big}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a 2 MB file: %v", err)
	}
}

// Names known only to the caller are checked with the line that used them.
func TestConfigCheckNamesTheLine(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	path := filepath.Join(t.TempDir(), "hostcache.conf")
	os.WriteFile(path, []byte("interval = 1000\ncollector.cpuu.interval = 500\ninstances.disks.exclude = ^loop\ninstances.disk.exclude = ^ram\n"), 0o644)
	c, err := Load([]string{"-c", path})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Check(Known{Collectors: []string{"cpu", "memory"}, InDoms: []string{"disk", "network.all"}})
	for _, want := range []string{path + `:2: unknown collector "cpuu"`, path + `:3: unknown instance domain "disks"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check: %v, want %s", err, want)
		}
	}
	if strings.Contains(fmt.Sprint(err), `"disk"`) {
		t.Errorf("a known indom refused: %v", err)
	}
}

// FuzzConfigFile: whatever the file holds, loading never panics, and an
// error names the file (and a line, for a line's fault).
func FuzzConfigFile(f *testing.F) {
	f.Add([]byte("interval = 1000\ncollector.cpu.interval = 500\n# x\n"))
	f.Add([]byte("instances.network.all.include = ^eth\nhistory = 900\n"))
	f.Add([]byte("interval = 18446744073810\n"))
	dir := f.TempDir()
	f.Setenv("PCP_PMDAS_DIR", dir)
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.conf")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load([]string{"-c", path})
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if c.Interval < MinIntervalMS*time.Millisecond || c.Interval > MaxIntervalMS*time.Millisecond {
			t.Fatalf("interval %v accepted", c.Interval)
		}
		for name, iv := range c.Intervals {
			if iv < MinIntervalMS*time.Millisecond || iv > MaxIntervalMS*time.Millisecond {
				t.Fatalf("interval of %s %v accepted", name, iv)
			}
		}
	})
}

// The shipped example parses, and says what the defaults are.
func TestShippedExampleParses(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	c, err := Load([]string{"-c", "../hostcache.conf"})
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	if c.Interval != d.Interval || c.History != d.History || c.StaleIntervals != d.StaleIntervals {
		t.Errorf("the example changes defaults: %+v", c)
	}
	// Uncommented, every line still parses.
	data, _ := os.ReadFile("../hostcache.conf")
	var live []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") && strings.Contains(line, " = ") && !strings.HasPrefix(line, "# ") {
			live = append(live, strings.TrimPrefix(line, "#"))
		}
	}
	path := filepath.Join(t.TempDir(), "live.conf")
	os.WriteFile(path, []byte(strings.Join(live, "\n")+"\n"), 0o644)
	if _, err := Load([]string{"-c", path}); err != nil || len(live) < 10 {
		t.Errorf("the example's lines uncommented: %v (%d lines)", err, len(live))
	}
}

// The idle back-off is on by default (5 minutes, a tenth as often) and can
// be turned off.
func TestIdleSettings(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	d := Default()
	if d.IdleAfter != 5*time.Minute || d.IdleFactor != 10 {
		t.Errorf("defaults %v, %d", d.IdleAfter, d.IdleFactor)
	}
	path := filepath.Join(t.TempDir(), "hostcache.conf")
	os.WriteFile(path, []byte("idle_after = 0\nidle_factor = 4\n"), 0o644)
	c, err := Load([]string{"-c", path})
	if err != nil || c.IdleAfter != 0 || c.IdleFactor != 4 {
		t.Errorf("loaded %v, %d, %v", c.IdleAfter, c.IdleFactor, err)
	}
}

// The agent runs on one Go processor unless told a number.
func TestProcessorsSetting(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	if d := Default(); d.Processors != 1 {
		t.Errorf("default processors %d, want 1", d.Processors)
	}
	for _, n := range []int{2, 4} {
		c := loadText(t, "processors = "+strconv.Itoa(n)+"\n")
		if c.Processors != n {
			t.Errorf("processors = %d loaded as %d", n, c.Processors)
		}
	}
}
