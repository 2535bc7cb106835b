package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// fetchWord fetches one singular 32-bit metric from the agent.
func fetchWord(t *testing.T, a *driver.Agent, name string) (uint32, bool) {
	t.Helper()
	_, reply, err := a.Request((&pmda.Fetch{PMIDs: []uint32{pmidOf(name)}}).Append(nil))
	if err != nil {
		t.Fatal(err)
	}
	var res pmda.Result
	if err := res.Decode(reply); err != nil || len(res.Sets) != 1 || len(res.Sets[0].Values) != 1 {
		return 0, false
	}
	return res.Sets[0].Values[0].Word, true
}

// waitWord polls a singular metric until it has the wanted value.
func waitWord(t *testing.T, a *driver.Agent, name string, want uint32) bool {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if v, ok := fetchWord(t, a, name); ok && v == want {
			return true
		}
	}
	return false
}

// SIGHUP re-reads the configuration: a good file takes effect while the
// same process keeps running (its collectors, history and ids); a bad one
// is refused with its file and line and the running settings stay; a
// change only a restart can make is named in the log and left alone. The
// number of processors changes at once.
func TestReloadOnSIGHUP(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	base := "id_dir = " + dir + "\n"
	write := func(text string) {
		if err := os.WriteFile(conf, []byte(base+text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("interval = 1000\nprocessors = 3\n")
	logFile := filepath.Join(dir, "agent.log")
	a, err := driver.Start(agentPath, []string{"-d", "396", "-l", logFile, "-U", "root", "-c", conf,
		"-r", "../../testdata/proc-t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	hup := func() {
		if err := syscall.Kill(a.Pid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}
	if !waitWord(t, a, "hostcache.control.interval", 1000) {
		t.Fatal("the configured interval is not in force")
	}

	write("interval = 2000\nhistory = 60\nprocessors = 1\n")
	hup()
	if !waitWord(t, a, "hostcache.control.interval", 2000) {
		t.Fatal("a good file did not take effect")
	}
	// The processors, as the runtime reports them after each change:
	// three as started, one after the reload.
	waitLog(t, logFile, "processors=3")
	waitLog(t, logFile, "configuration reloaded file="+conf+" interval=2000 processors=1")
	write("\ninterval = 99\n")
	hup()
	waitLog(t, logFile, conf+":3: interval 99 ms outside")
	if v, _ := fetchWord(t, a, "hostcache.control.interval"); v != 2000 {
		t.Errorf("after a bad file the interval is %d, want the running 2000", v)
	}
	logged := waitLog(t, logFile, "history")
	if !strings.Contains(logged, "takes effect at the next restart") {
		t.Errorf("the changed history is not named as waiting for a restart:\n%s", logged)
	}
	if a.Exited() {
		t.Fatal("the agent exited on SIGHUP")
	}
}

// waitLog waits until the log holds text, and returns it.
func waitLog(t *testing.T, logFile, text string) string {
	t.Helper()
	var logged string
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(logFile)
		logged = strings.NewReplacer(`\"`, `"`).Replace(string(b))
		if strings.Contains(logged, text) {
			return logged
		}
	}
	t.Fatalf("the log never said %q:\n%s", text, logged)
	return ""
}
