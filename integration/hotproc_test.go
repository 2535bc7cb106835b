//go:build linux

package integration

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// hotprocPredicate picks pmcd by name and a busy loop by its CPU burn.
const hotprocPredicate = `fname == "pmcd" || cpuburn > 0.5`

// testHotprocTwins holds hostcache.hotproc.* to pmdaproc's hotproc.* on
// this host, beside it: the same descriptors; the same predicate stored
// into both is written back the same; both choose pmcd and a busy loop;
// a user other than root may store into neither. Both are set back to
// no predicate and a 10 s refresh at the end.
func testHotprocTwins(t *testing.T) {
	if _, err := exec.LookPath("runuser"); err != nil {
		t.Skip("no runuser: the check stores as nobody")
	}
	t.Logf("%d hostcache.hotproc twins of pmdaproc's hotproc metrics", compareTwinDescs(t, "hotproc"))
	for _, prefix := range []string{"hostcache.", ""} {
		defer resetHotproc(t, prefix)
	}
	checkHotproc(t, "hostcache.", true)
}

// checkHotproc stores the predicate and a 1 s refresh into prefix's
// hotproc (with pmdaproc's beside, into both), and waits for pmcd and a
// busy loop among the hot processes.
func checkHotproc(t *testing.T, prefix string, pmdaprocBeside bool) {
	prefixes := []string{prefix}
	if pmdaprocBeside {
		prefixes = append(prefixes, "")
	}
	for _, p := range prefixes {
		out, err := run(t, 20*time.Second, "runuser", "-u", "nobody", "--", "pmstore",
			p+"hotproc.control.config", hotprocPredicate)
		if err == nil || !strings.Contains(out, "No permission") {
			t.Errorf("nobody stored %shotproc.control.config: %v\n%s", p, err, out)
		}
		mustRun(t, 20*time.Second, "pmstore", p+"hotproc.control.refresh", "1")
		mustRun(t, 20*time.Second, "pmstore", p+"hotproc.control.config", hotprocPredicate)
	}
	burn := exec.Command("sh", "-c", "while :; do :; done")
	if err := burn.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { burn.Process.Kill(); burn.Wait() }()
	loop := fmt.Sprintf("%06d sh", burn.Process.Pid)
	pmcd := strings.TrimSpace(mustRun(t, 10*time.Second, "pgrep", "-o", "-x", "pmcd"))
	for _, p := range prefixes {
		waitFor(t, p+"hotproc choosing pmcd and the busy loop", 30*time.Second, func() bool {
			hot := values(t, p+"hotproc.psinfo.pid")
			_, ok := hot[loop]
			return ok && hasValue(hot, pmcd)
		})
		burnt := values(t, p+"hotproc.predicate.cpuburn")[loop]
		t.Logf("%shotproc: %s processes hot, the busy loop's cpuburn %s, config %s", p,
			values(t, p+"hotproc.nprocs")[""], burnt, values(t, p+"hotproc.control.config")[""])
	}
	if pmdaprocBeside {
		ours, theirs := values(t, prefix+"hotproc.control.config")[""], values(t, "hotproc.control.config")[""]
		if ours != theirs {
			t.Errorf("the predicate written back: hostcache %s, pmdaproc %s", ours, theirs)
		}
	}
}

// hasValue reports whether a value is among vals'.
func hasValue(vals map[string]string, want string) bool {
	for _, v := range vals {
		if v == want {
			return true
		}
	}
	return false
}

// resetHotproc turns prefix's hotproc off again, with its default refresh.
func resetHotproc(t *testing.T, prefix string) {
	mustRun(t, 20*time.Second, "pmstore", prefix+"hotproc.control.config", "")
	mustRun(t, 20*time.Second, "pmstore", prefix+"hotproc.control.refresh", "10")
	if n := values(t, prefix+"hotproc.nprocs")[""]; n != "0" {
		t.Errorf("%shotproc.nprocs is %s with no predicate", prefix, n)
	}
}
