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

// testRestartIDs stops the agent as a crash would and has pmcd start a
// new process (pmcd restarts an agent that exited when it is sent
// SIGHUP), and checks every instance keeps its id. (A reinstall restarts
// it too: TestDebianPackage's upgrade and TestStandIn's switches.)
func testRestartIDs(t *testing.T) {
	before := map[string]map[string]string{}
	total := 0
	for _, m := range stableIndoms {
		before[m] = instanceIDs(t, m)
		total += len(before[m])
	}
	if total == 0 {
		t.Fatal("no instances to compare")
	}
	pid0 := strings.TrimSpace(mustRun(t, 5*time.Second, "pgrep", "-x", "pmdahostcache"))
	mustRun(t, 10*time.Second, "kill", "-KILL", pid0)
	var pid1 string
	waitFor(t, "pmcd to start a new agent", 30*time.Second, func() bool {
		mustRun(t, 10*time.Second, filepath.Join(pcpVar(t, "PCP_BINADM_DIR"), "pmsignal"), "-a", "-s", "HUP", "pmcd")
		time.Sleep(500 * time.Millisecond)
		pid1, _ = run(t, 5*time.Second, "pgrep", "-x", "pmdahostcache")
		pid1 = strings.TrimSpace(pid1)
		return pid1 != "" && pid1 != pid0 && len(instanceIDs(t, stableIndoms[0])) == len(before[stableIndoms[0]])
	})
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
