//go:build linux

package integration

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector"
)

// TestFreshInstall installs the agent where it was not installed, with no
// MMV file, as a new user does, and its flight recorder writing to a
// directory of the test's own: Install prints no warning, and pminfo -f
// hostcache prints no error. Each MMV dynamic root lists names below it
// (its control metrics), never itself: pmcd 6.0.3 lists a dynamic node
// with nothing below it as if it were a metric, which every client
// walking the namespace then fails to look up. Beside pmdalinux, a client
// in a container that does not exist gets pmdalinux's error. Then only
// the users the configuration names may store (testStoreAccess).
func TestFreshInstall(t *testing.T) {
	requirePCP(t)
	bin := buildPMDA(t)
	// An MMV directory of the test's own, empty: the system's may hold
	// files of other programs.
	mmvDir, err := os.MkdirTemp("", "hostcache-mmv-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(mmvDir) })
	os.Chmod(mmvDir, 0o755) // the agent, as the pcp user, lists it
	// The agent writes as the pcp user: the record directory must be its to write.
	records, out := installAside(t, bin, 0o777, true, func(dir string) string {
		return "mmv_dir = " + mmvDir + "\nrecord_dir = " + dir +
			"\nrecord_min_gap = 60\nstore_users = root\nstore_groups = pcp\n"
	})
	t.Logf("Install:\n%s", out)
	check := regexp.MustCompile(`(?m)^.*\d+ metrics and \d+ values$`).FindString(out)
	if check == "" {
		t.Fatalf("Install did not report metrics:\n%s", out)
	}
	if strings.Contains(strings.ToLower(out), "warning") {
		t.Errorf("a fresh Install warns: %q", check)
	}

	// The collectors' second samples, so rates have values.
	waitForSamples(t, 2, time.Second)
	out, err = run(t, 2*time.Minute, "pminfo", "-f", "hostcache")
	if err != nil {
		t.Errorf("pminfo -f hostcache: %v", err)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "pmLookup") || strings.Contains(line, "Error: ") || strings.Contains(line, "Unknown metric") {
			t.Errorf("pminfo -f hostcache: %s", line)
		}
	}
	names := strings.Fields(mustRun(t, time.Minute, "pminfo", "hostcache"))
	for _, root := range collector.DynamicRoots() {
		below := 0
		for _, n := range names {
			if n == root {
				t.Errorf("pminfo hostcache lists the dynamic root %s as a metric", root)
			}
			if strings.HasPrefix(n, root+".control.") {
				below++
			}
		}
		if below == 0 {
			t.Errorf("pminfo hostcache lists nothing below %s", root)
		}
	}
	for _, m := range []string{"hostcache.mmv.control.files", "hostcache.mmv.control.metrics", "hostcache.mmv.control.changes"} {
		if v := values(t, m)[""]; v != "0" {
			t.Errorf("%s is %q with no MMV file, want 0", m, v)
		}
	}
	// Beside pmdalinux, a container that does not exist gets pmdalinux's
	// error (PCP's QA test 767): the agent asks pmdaroot, as pmdalinux does.
	t.Run("a container that does not exist", func(t *testing.T) {
		checkQABeside(t, readQAAnswers(t, "hostcache."))
		if v := values(t, "hostcache.pmda.version")[""]; !strings.Contains(v, " hostcache") {
			t.Errorf("hostcache.pmda.version %s, want PCP's release, then hostcache", v)
		}
	})
	t.Run("who may store", func(t *testing.T) { testStoreAccess(t, records) })
	t.Run("pmdaproc's twins", testProcTwins)
	t.Run("hotproc", testHotprocTwins)
}
