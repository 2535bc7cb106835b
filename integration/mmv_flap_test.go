package integration

import (
	"encoding/binary"
	"math"
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

// testMMVFlap: while another file (a copy of hctest's, so a valid one)
// appears and goes every 1.25 s (most of the agent's 1 s scans find it
// changed), pmrep at 10 s sees hctest's 10 s rates as in a quiet minute:
// within 1% of the writer's rate, as pmdammv's are, in every interval.
// The agent applies few of the flaps: the names change a handful of
// times in the minute, not some fifty, and the last change applies once
// its wait ends.
func testMMVFlap(t *testing.T, mmvDir string, w *mmvWriter) {
	image, err := os.ReadFile(w.file)
	if err != nil {
		t.Fatal(err)
	}
	if len(image) < 40 {
		t.Fatalf("%s has %d bytes, no MMV header", w.file, len(image))
	}
	binary.LittleEndian.PutUint32(image[36:40], mmvFlapCluster) // the header's cluster
	flap := filepath.Join(mmvDir, "hcflap")
	t.Cleanup(func() { os.Remove(flap) })
	logPath := filepath.Join(pcpVar(t, "PCP_LOG_DIR"), "pmcd", "hostcache.log")
	before := logSize(t, logPath)
	rows, out := runMMVPmrep(t, func() {
		end := time.Now().Add(65 * time.Second)
		for time.Now().Before(end) {
			writeAtomically(t, flap, image)
			time.Sleep(1250 * time.Millisecond)
			os.Remove(flap)
			time.Sleep(1250 * time.Millisecond)
		}
	})
	t.Logf("pmrep -t 10sec while a file flaps:\n%s", out)
	if len(rows) != 7 {
		t.Fatalf("pmrep printed %d rows, want 7", len(rows))
	}
	for _, r := range rows[1:] {
		if !r.complete() {
			t.Errorf("%s: a value is missing: %v", r.at, r.values)
			continue
		}
		for _, c := range []string{"rate", "mmv"} {
			if math.Abs(r.get(c)-mmvRate) > 0.01*mmvRate {
				t.Errorf("%s: %s is %v a second, the writer's %v", r.at, c, r.get(c), mmvRate)
			}
		}
	}
	// The last flap's change applies once the gap it waits for ends.
	waitFor(t, "the flapping file to leave hostcache.mmv", mmvSettle, func() bool {
		return !strings.Contains(mmvListing(t), "hostcache.mmv.hcflap.")
	})
	logged := logSince(t, logPath, before)
	if !strings.Contains(logged, "changes are held back") {
		t.Error("the agent's log does not say that it held changes back")
	}
	changes := strings.Count(logged, mmvChangedLine)
	t.Logf("the MMV metrics changed %d times while the file came and went 52 times", changes)
	if changes == 0 || changes > 8 {
		t.Errorf("the MMV metrics changed %d times while a file came and went 52 times, want 1 to 8", changes)
	}
}

// writeAtomically writes data to path through a hidden name, so the
// agent never reads a file half written.
func writeAtomically(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path))
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
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
