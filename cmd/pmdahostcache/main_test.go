package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// agentPath is the pmdahostcache binary built once for this package's
// tests, which run it on pipes exactly as pmcd would.
var agentPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pmdahostcache-test")
	if err != nil {
		panic(err)
	}
	agentPath = filepath.Join(dir, "pmdahostcache")
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
