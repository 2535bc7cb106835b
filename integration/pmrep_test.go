package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var viewHeader = regexp.MustCompile(`(?m)^\[(hostcache-[^\]]+)\]$`)

// testPmrepViews: every view of pmrep/hostcache.conf is installed where
// pmrep finds it and runs for two samples with no error and no missing
// metric, printing two rows of figures.
func testPmrepViews(t *testing.T) {
	requireTools(t, "pmrep")
	installedConf := filepath.Join(pcpVar(t, "PCP_SYSCONF_DIR"), "pmrep", "hostcache.conf")
	shipped, err := os.ReadFile(filepath.Join(repoRoot, "pmrep", "hostcache.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(installedConf); err != nil || !bytes.Equal(got, shipped) {
		t.Fatalf("%s is not the shipped pmrep/hostcache.conf (%v)", installedConf, err)
	}
	views := viewHeader.FindAllStringSubmatch(string(shipped), -1)
	if len(views) < 7 {
		t.Fatalf("only %d views in pmrep/hostcache.conf", len(views))
	}
	// Each view waits a second between its samples: they run together.
	for _, v := range views {
		t.Run(v[1], func(t *testing.T) {
			t.Parallel()
			runView(t, v[1])
		})
	}
}

// runView runs one view by name, as an administrator types it.
func runView(t *testing.T, view string) {
	cmd := exec.Command("pmrep", "-s", "2", "-t", "1", ":"+view)
	// pmrep runs PCP's python3 through pmpython, found on PATH: a python3
	// earlier on it (pyenv's on these machines) has no PCP module.
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin:"+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("pmrep :%s: %v\n%s%s", view, err, stdout.String(), stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("pmrep :%s did not finish", view)
	}
	var rows int
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if strings.ContainsAny(line, "0123456789") && !strings.Contains(line, "%") && !strings.Contains(line, "/s") {
			rows++
		}
	}
	// A per-device view prints a row per device and sample.
	if rows < 2 {
		t.Errorf("pmrep :%s printed %d rows of figures:\n%s", view, rows, stdout.String())
	}
	t.Logf("pmrep :%s\n%s", view, stdout.String())
}
