package proc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// longIO is an io file longer than the offset of status's NS lines.
const longIO = "rchar: 123456789012345\nwchar: 123456789012345\nsyscr: 123456789012\nsyscw: 123456789012\n" +
	"read_bytes: 123456789012345\nwrite_bytes: 123456789012345\ncancelled_write_bytes: 123456789012\n"

func writeLongIO(t *testing.T, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		if err := os.WriteFile(filepath.Join(dir, "io"), []byte(longIO), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The status text's strings (the NS lines, Cpus_allowed_list) outlive the
// reads of the files after it: a long io file must not overwrite them.
func TestStatusStringsSurviveLaterReads(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	writeLongIO(t, filepath.Join(h.Proc, "1"), filepath.Join(h.Proc, "100"), filepath.Join(h.Proc, "300"))
	h.MustSample(h.Now)
	wantStrings(t, h, map[string]map[uint32]string{
		"proc.namespaces.pid":  {1: "1", 100: "100", 300: "300,1"},
		"proc.namespaces.tgid": {300: "300,1"},
		"proc.namespaces.sid":  {300: "290,0"},
	})
	h.WantU64("proc.io.rchar", 100, 123456789012345)
}

// The threads view reads each thread's files with the same reader.
func TestThreadStatusStringsSurviveLaterReads(t *testing.T) {
	h, _ := newAllHarness(t, "threads/t0")
	task := filepath.Join(h.Proc, "300", "task")
	writeLongIO(t, filepath.Join(task, "300"), filepath.Join(task, "301"), filepath.Join(task, "302"))
	h.MustSample(collectortest.T0)
	wantStrings(t, h, map[string]map[uint32]string{
		"proc.threads.namespaces.pid": {300: "300,1", 301: "300,1"},
		"proc.threads.namespaces.sid": {300: "290,0", 302: "290,0"},
	})
}
