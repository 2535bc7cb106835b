package integration

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mmvChangedLine is what the agent logs each time the MMV source's
// metrics change (engine/dynamic.go).
const mmvChangedLine = "the source's metrics changed"

// mmvSettle is how long a change of the MMV files' metrics may wait for
// the agent's pace after changes came fast: its longest gap, 64 s, and
// room.
const mmvSettle = 80 * time.Second

// mmvFlapCluster is the flapping file's MMV cluster: not hctest's, so
// pmdammv serves the two apart.
const mmvFlapCluster = 99

// mmvFlapper makes another file, a copy of hctest's under another cluster
// (so a valid one), appear and go every 1.25 s: most of the agent's 1 s
// scans find the files changed.
type mmvFlapper struct {
	image   []byte
	path    string
	logPath string
	logFrom int64 // the agent's log before the first flap
	flaps   int
	err     error
}

// newMMVFlapper readies the flapping copy of w's file.
func newMMVFlapper(t *testing.T, mmvDir string, w *mmvWriter) *mmvFlapper {
	t.Helper()
	image, err := os.ReadFile(w.file)
	if err != nil {
		t.Fatal(err)
	}
	if len(image) < 40 {
		t.Fatalf("%s has %d bytes, no MMV header", w.file, len(image))
	}
	binary.LittleEndian.PutUint32(image[36:40], mmvFlapCluster) // the header's cluster
	f := &mmvFlapper{image: image, path: filepath.Join(mmvDir, "hcflap")}
	f.logPath = filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd", "hostcache.log")
	f.logFrom = logSize(t, f.logPath)
	t.Cleanup(func() { os.Remove(f.path) })
	return f
}

// run flaps the file for d and leaves it gone.
func (f *mmvFlapper) run(d time.Duration) {
	tmp := filepath.Join(filepath.Dir(f.path), ".hcflap")
	for end := time.Now().Add(d); time.Now().Before(end); f.flaps++ {
		if err := os.WriteFile(tmp, f.image, 0o644); err != nil {
			f.err = err
			return
		}
		if err := os.Rename(tmp, f.path); err != nil {
			f.err = err
			return
		}
		time.Sleep(1250 * time.Millisecond)
		os.Remove(f.path)
		time.Sleep(1250 * time.Millisecond)
	}
}

// testMMVSettled: the agent applies few of the flaps. Once the flapping
// has stopped and hctest's file is removed too, the last change applies
// when its wait ends (mmvSettle), both files leave hostcache.mmv, and
// the names changed a handful of times, not some fifty.
func testMMVSettled(t *testing.T, f *mmvFlapper, w *mmvWriter) {
	w.stop()
	waitFor(t, "the flapping and the removed file to leave hostcache.mmv", mmvSettle, func() bool {
		l := mmvListing(t)
		return !strings.Contains(l, "hostcache.mmv.hcflap.") && !strings.Contains(l, "hostcache.mmv."+w.name+".")
	})
	// An agent that stopped answering would list nothing too.
	if len(values(t, "hostcache.control.interval")) != 1 {
		t.Error("the agent does not answer after the files went")
	}
	t.Logf("pminfo hostcache.mmv with none: %s", mmvListing(t))
	logged := logSince(t, f.logPath, f.logFrom)
	if !strings.Contains(logged, "changes are held back") {
		t.Error("the agent's log does not say that it held changes back")
	}
	changes := strings.Count(logged, mmvChangedLine)
	t.Logf("the MMV metrics changed %d times while the file came and went %d times", changes, f.flaps)
	// The flaps' last change and the removal apply together, or one after
	// the other.
	if changes == 0 || changes > 9 {
		t.Errorf("the MMV metrics changed %d times while a file came and went %d times, want 1 to 9", changes, f.flaps)
	}
}

// logSize is the log's length now.
func logSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// logSince is what the log gained past offset.
func logSince(t *testing.T, path string, offset int64) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) < offset {
		return string(data)
	}
	return string(data[offset:])
}
