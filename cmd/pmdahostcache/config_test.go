package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A bad configuration stops the agent at start-up with its file and line,
// on stderr and in the log file, and exit status 1.
func TestBadConfigIsReportedWithItsLine(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"a value out of range", "interval = 99\n", ":1: interval 99 ms outside"},
		{"an unknown collector", "\ncollector.cpuu.interval = 500\n", `:2: unknown collector "cpuu"`},
		{"a mistyped filter", "instances.disks.exclude = ^loop\n", `:1: unknown instance domain "disks"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			conf := filepath.Join(dir, "hostcache.conf")
			os.WriteFile(conf, []byte(c.text), 0o644)
			logFile := filepath.Join(dir, "agent.log")
			cmd := exec.Command(agentPath, "-d", "396", "-l", logFile, "-c", conf, "-r", "../../testdata/proc-t0")
			var stderr bytes.Buffer
			cmd.Stderr, cmd.Stdin = &stderr, nil
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Errorf("exit: %v", err)
			}
			logged, _ := os.ReadFile(logFile)
			if !pcpLogLine.Match(logged) {
				t.Errorf("the log is not in PCP's format:\n%s", logged)
			}
			// The log is JSON: compare without its escaping of quotes.
			unquote := strings.NewReplacer(`\"`, `"`)
			for where, text := range map[string]string{"stderr": stderr.String(), "log": unquote.Replace(string(logged))} {
				if !strings.Contains(text, conf+c.want) {
					t.Errorf("%s lacks %s%s:\n%s", where, conf, c.want, text)
				}
			}
		})
	}
}

// The configuration file and pmstore accept the same intervals.
func TestIntervalBoundsAgree(t *testing.T) {
	if config.MinIntervalMS != engine.MinIntervalMS || config.MaxIntervalMS != engine.MaxIntervalMS {
		t.Errorf("config %d..%d, pmstore %d..%d", config.MinIntervalMS, config.MaxIntervalMS,
			engine.MinIntervalMS, engine.MaxIntervalMS)
	}
}

// pcpLogLine is a line of a PCP agent's log at error severity.
var pcpLogLine = regexp.MustCompile(`(?m)^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d\] pmdahostcache\(\d+\) Error: `)

// log_format = json writes JSON lines instead.
func TestJSONLogOnRequest(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("log_format = json\ninterval = 99\n"), 0o644)
	logFile := filepath.Join(dir, "agent.log")
	// The bad line stops the agent after log_format was read.
	exec.Command(agentPath, "-d", "396", "-l", logFile, "-c", conf).Run()
	logged, _ := os.ReadFile(logFile)
	if !strings.HasPrefix(string(logged), `{"level":"error"`) {
		t.Errorf("log_format = json gave:\n%s", logged)
	}
}
