package integration

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var instLine = regexp.MustCompile(`(?m)^\s+inst \[(\d+) or "([^"]*)"\]`)

// instanceIDs maps instance names to ids as pminfo -f shows them.
func instanceIDs(t *testing.T, metric string) map[string]string {
	t.Helper()
	out, _ := run(t, 20*time.Second, "pminfo", "-f", metric)
	ids := map[string]string{}
	for _, m := range instLine.FindAllStringSubmatch(out, -1) {
		ids[m[2]] = m[1]
	}
	return ids
}

// stableIndoms are metrics whose instance ids are assigned by the agent
// (not given by the kernel) and must survive a restart.
var stableIndoms = []string{"hostcache.disk.dev.read", "hostcache.disk.partitions.read",
	"hostcache.network.interface.in.bytes", "hostcache.filesys.capacity"}

// testRestartIDs reinstalls the agent (Install stops the running one and
// pmcd starts a new process) and checks every instance keeps its id.
func testRestartIDs(t *testing.T, bin string) {
	before := map[string]map[string]string{}
	total := 0
	for _, m := range stableIndoms {
		before[m] = instanceIDs(t, m)
		total += len(before[m])
	}
	if total == 0 {
		t.Fatal("no instances to compare")
	}
	pid0, _ := run(t, 5*time.Second, "pgrep", "-x", "pmdahostcache")
	mustRun(t, 3*time.Minute, filepath.Join(repoRoot, "scripts", "install-pmda.sh"), bin)
	waitFor(t, "the new agent to serve", 30*time.Second, func() bool {
		return len(instanceIDs(t, stableIndoms[0])) == len(before[stableIndoms[0]])
	})
	pid1, _ := run(t, 5*time.Second, "pgrep", "-x", "pmdahostcache")
	if strings.TrimSpace(pid0) == strings.TrimSpace(pid1) {
		t.Fatalf("agent was not restarted (pid %s)", pid0)
	}
	for _, m := range stableIndoms {
		after := instanceIDs(t, m)
		for name, id := range before[m] {
			if after[name] != id {
				t.Errorf("%s[%s]: id %s before the restart, %q after", m, name, id, after[name])
			}
		}
	}
	t.Logf("%d instance ids unchanged across a restart", total)
}
