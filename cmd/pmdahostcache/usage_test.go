package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// --help and -? print the usage and the configuration file's keys on
// stderr and exit 0, writing nothing on stdout (pmcd's pipe when pmcd runs
// the agent).
func TestHelpExitsZero(t *testing.T) {
	for _, arg := range []string{"--help", "-?"} {
		cmd := exec.Command(agentPath, arg)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: %v", arg, err)
		}
		if stderr.String() != config.Help() || !strings.Contains(stderr.String(), "record_min_gap = 60") || stdout.Len() != 0 {
			t.Errorf("%s: stdout %q, stderr %q", arg, stdout.String(), stderr.String())
		}
	}
}

// The manual page renders without a warning from groff.
func TestManPageRenders(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		testenv.SkipOutsideCI(t, "no groff to render the manual page")
	}
	out, err := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z", "../../man/pmdahostcache.1").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("groff: %v\n%s", err, out)
	}
}
