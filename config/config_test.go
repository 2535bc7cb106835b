package config

import (
	"os"
	"path/filepath"
	"strings"
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
	os.WriteFile(path, []byte("# comment\ninterval = 2000\ncollector.cpu.interval = 500 # fast\ncollector.uptime.enabled = no\nproc_root = /p\n"+
		"instances.network.all.include = ^eth\ninstances.disk.exclude = ^loop\n"), 0o644)
	c, err := Load([]string{"-c", path})
	if err != nil {
		t.Fatal(err)
	}
	if c.Interval != 2*time.Second || c.Intervals["cpu"] != 500*time.Millisecond || !c.Disabled["uptime"] || c.ProcRoot != "/p" ||
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
