package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// agentPath is the pmdahostcache binary built once for this package's
// tests, which run it on pipes exactly as pmcd would. Its name is not
// pmdahostcache: PCP's Install and Remove (pmdaproc.sh) stop every
// process of that name, and the integration tests run them meanwhile.
var agentPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pmdahostcache-test")
	if err != nil {
		panic(err)
	}
	agentPath = filepath.Join(dir, "hostcache-agent-under-test")
	args := []string{"build", "-o", agentPath}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building the agent: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
