package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// systemPython is the python3 whose path has PCP's modules: an earlier
// python3 on PATH (pyenv's on these machines) has none.
const systemPython = "/usr/bin/python3"

// testMMV runs a small program that writes a live MMV file through PCP's
// own pcp.mmv (testdata/mmv_writer.py) and checks hostcache's view of it
// through pmcd beside pmdammv's, which reads the same file:
//
//   - the file's metrics appear below hostcache.mmv without a restart,
//     with pmdammv's names, descriptors, help, instances and, held
//     still, values; counters have rate, max.rate and min.rate twins and
//     numeric instants max and min twins;
//   - a file whose program exits (MMV_FLAG_PROCESS) leaves
//     hostcache.mmv;
//   - a 10 s pmrep while another file appears and goes every 1.25 s:
//     hostcache's rate equals pmdammv's counter's rate over pmrep's own
//     records within 1%, and a burst of 5000 in one step shows in
//     max.rate while the 10 s rates show the average;
//   - the flight recorder's archive holds the counter at 1 s with the
//     burst as a single-second step;
//   - the flaps change the names a few times only, and the flapping file
//     and a removed one leave hostcache.mmv.
func testMMV(t *testing.T, load *underLoad) {
	requireTools(t, "pmrep", "pmdumplog", "pmstore")
	requireMMVWriter(t)
	if out, err := run(t, 10*time.Second, "pminfo", "mmv.control.files"); err != nil {
		testenv.SkipOutsideCI(t, "pmdammv does not run in pmcd (Debian's pmcd.conf has it): "+out)
	}
	waitFor(t, "the mmv collector's first sample", 30*time.Second, func() bool {
		return mmvSamples(t) >= 1
	})
	mmvDir := filepath.Join(pcpVar(t, "PCP_TMP_DIR"), "mmv")

	w := startMMVWriter(t, mmvDir, "hctest", 42, false)
	waitFor(t, "hostcache.mmv.hctest, written after the agent started", 15*time.Second, func() bool {
		return strings.Contains(mmvListing(t), "hostcache.mmv.hctest.requests\n")
	})
	t.Run("as pmdammv serves it", func(t *testing.T) { testMMVAsPmdammv(t, w) })
	// On a quiet agent, before the flaps slow its pace.
	t.Run("files come and go", func(t *testing.T) { testMMVFiles(t, mmvDir, w) })
	flap := newMMVFlapper(t, mmvDir, w)
	t.Run("10 s rates and a burst while a file flaps", func(t *testing.T) { testMMVRates(t, w, flap) })
	t.Run("flight recorder", func(t *testing.T) { testMMVRecorder(t, load) })
	t.Run("the files settle", func(t *testing.T) { testMMVSettled(t, flap, w) })
	t.Run("log clean", func(t *testing.T) { testMMVLog(t) })
}

// testMMVLog: the agent, built with the race detector, logged no race,
// panic or error while it read the files; what it said of them is logged.
func testMMVLog(t *testing.T) {
	log, err := os.ReadFile(filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd", "hostcache.log"))
	if err != nil {
		t.Fatalf("the agent's log: %v", err)
	}
	for _, bad := range []string{") Error: ", ") Critical: ", "WARNING: DATA RACE", "panic"} {
		if strings.Contains(string(log), bad) {
			t.Errorf("hostcache.log contains %s", bad)
		}
	}
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "mmv") {
			t.Logf("hostcache.log: %s", line)
		}
	}
}

// requireMMVWriter skips, outside CI, when PCP's Python MMV binding is
// missing (Debian's python3-pcp).
func requireMMVWriter(t *testing.T) {
	t.Helper()
	if !fileExists(systemPython) {
		testenv.SkipOutsideCI(t, systemPython+" is not installed")
	}
	if out, err := exec.Command(systemPython, "-c", "import cmmv, pcp.mmv").CombinedOutput(); err != nil {
		testenv.SkipOutsideCI(t, "PCP's Python MMV module is not installed (python3-pcp): "+string(out))
	}
}

// mmvSamples is the number of samples the mmv collector has taken; 0
// when the agent has no such collector.
func mmvSamples(t *testing.T) int {
	t.Helper()
	n, _ := strconv.Atoi(values(t, "hostcache.control.collector.samples")["mmv"])
	return n
}

// mmvListing is pminfo's list of the names below hostcache.mmv, one a
// line; with no file there, the control metrics'.
func mmvListing(t *testing.T) string {
	t.Helper()
	out, _ := run(t, 20*time.Second, "pminfo", "hostcache.mmv")
	return out
}

// mmvWriter is one running testdata/mmv_writer.py and its MMV file.
type mmvWriter struct {
	name, file, control string
	cmd                 *exec.Cmd
	exited              chan struct{}
}

// startMMVWriter starts the writer of $PCP_TMP_DIR/mmv/name, its metrics in
// cluster (each file's own, as pmdammv wants), killed and its file removed
// when the test ends.
func startMMVWriter(t *testing.T, mmvDir, name string, cluster int, process bool) *mmvWriter {
	t.Helper()
	w := &mmvWriter{name: name, file: filepath.Join(mmvDir, name), control: t.TempDir(), exited: make(chan struct{})}
	args := []string{filepath.Join(repoRoot, "integration", "testdata", "mmv_writer.py"), "--cluster", strconv.Itoa(cluster)}
	if process {
		args = append(args, "--process")
	}
	args = append(args, name, w.control)
	out, err := os.Create(filepath.Join(w.control, "output"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w.cmd = exec.Command(systemPython, args...)
	w.cmd.Stdout, w.cmd.Stderr = out, out
	if err := w.cmd.Start(); err != nil {
		t.Fatalf("starting the MMV writer: %v", err)
	}
	go func() { w.cmd.Wait(); close(w.exited) }()
	t.Cleanup(w.stop)
	waitFor(t, "the MMV writer of "+name, 15*time.Second, func() bool {
		data, _ := os.ReadFile(filepath.Join(w.control, "output"))
		select {
		case <-w.exited:
			t.Fatalf("the MMV writer exited: %s", data)
		default:
		}
		return strings.Contains(string(data), "ready")
	})
	return w
}

// stop kills the writer and removes its file.
func (w *mmvWriter) stop() {
	w.kill()
	os.Remove(w.file)
}

// kill ends the writer and waits for it; its file stays.
func (w *mmvWriter) kill() {
	w.cmd.Process.Signal(syscall.SIGKILL)
	<-w.exited
}

// signal creates one of the writer's control files.
func (w *mmvWriter) signal(t *testing.T, name string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.control, name), nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

// holding freezes the writer's values while f runs, and f only once the
// agent has sampled the frozen file twice.
func (w *mmvWriter) holding(t *testing.T, f func()) {
	t.Helper()
	w.signal(t, "hold")
	defer func() {
		os.Remove(filepath.Join(w.control, "hold"))
		waitFor(t, "the MMV writer to resume", 10*time.Second, func() bool {
			return !fileExists(filepath.Join(w.control, "held"))
		})
	}()
	waitFor(t, "the MMV writer to hold", 10*time.Second, func() bool {
		return fileExists(filepath.Join(w.control, "held"))
	})
	held := mmvSamples(t)
	waitFor(t, "two samples of the held file", 15*time.Second, func() bool {
		return mmvSamples(t) >= held+2
	})
	f()
}
