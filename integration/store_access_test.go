package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testStoreAccess stores through the real pmcd to an agent whose flight
// recorder writes to records and has written nothing yet: pmcd tells
// the agent who each client is (ATTR), so a user that is neither root
// nor in the pcp group is refused with "No permission" and changes
// nothing, so is root over TCP (pmcd knows no user there), root's store
// on the local socket works, and root's second recording inside
// record_min_gap is refused with PM_ERR_AGAIN and writes nothing.
func testStoreAccess(t *testing.T, records string) {
	requireTools(t, "runuser")
	log := filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd", "hostcache.log")
	logStart := fileSize(log)

	const interval = "hostcache.control.interval"
	before := values(t, interval)[""]
	for _, args := range [][]string{
		{"hostcache.control.record.seconds", "60"},
		{interval, "2000"},
		{"-i", "cpu", "hostcache.control.collector.interval", "2000"},
	} {
		out, err := run(t, 20*time.Second, "runuser", append([]string{"-u", "nobody", "--", "pmstore"}, args...)...)
		if err == nil || !strings.Contains(out, "No permission") {
			t.Errorf("pmstore %s as nobody: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// Over TCP pmcd knows no user: even root is refused.
	if out, err := run(t, 20*time.Second, "pmstore", "-h", "127.0.0.1", interval, "2000"); err == nil || !strings.Contains(out, "No permission") {
		t.Errorf("pmstore over TCP: %v\n%s", err, out)
	}
	if got := values(t, interval)[""]; got != before {
		t.Errorf("after nobody's store the interval is %s, was %s", got, before)
	}
	if got := values(t, "hostcache.control.collector.interval")["cpu"]; got != before {
		t.Errorf("after nobody's store the cpu interval is %s", got)
	}
	if got := values(t, "hostcache.control.record.archives")[""]; got != "0" {
		t.Errorf("nobody's request wrote an archive: %s", got)
	}
	if left, _ := os.ReadDir(records); len(left) != 0 {
		t.Errorf("nobody's request left %v", left)
	}
	data, _ := os.ReadFile(log)
	if int64(len(data)) < logStart || !strings.Contains(string(data[logStart:]), "uid=65534") ||
		!strings.Contains(string(data[logStart:]), "uid=unknown") {
		t.Errorf("the refusal is not logged with nobody's uid:\n%s", data[min(int64(len(data)), logStart):])
	}

	mustRun(t, 20*time.Second, "pmstore", interval, "2000")
	if got := values(t, interval)[""]; got != "2000" {
		t.Errorf("root's store: the interval is %s", got)
	}
	mustRun(t, 20*time.Second, "pmstore", interval, "0")

	mustRun(t, 20*time.Second, "pmstore", "hostcache.control.record.seconds", "10")
	waitFor(t, "root's archive", time.Minute, func() bool {
		return values(t, "hostcache.control.record.archives")[""] == "1" && values(t, "hostcache.control.record.busy")[""] == "0"
	})
	out, err := run(t, 20*time.Second, "pmstore", "hostcache.control.record.seconds", "10")
	if err == nil || !strings.Contains(out, "Try again") {
		t.Errorf("root's second request inside the gap: %v\n%s", err, out)
	}
	if n, busy := values(t, "hostcache.control.record.archives")[""], values(t, "hostcache.control.record.busy")[""]; n != "1" || busy != "0" {
		t.Errorf("after the refused request: %s archives, busy %s", n, busy)
	}
	metas, _ := filepath.Glob(filepath.Join(records, "hostcache-*.meta"))
	if len(metas) != 1 {
		t.Errorf("archives in the record directory: %v", metas)
	}
}
