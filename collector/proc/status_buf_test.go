package proc

import (
	"os"
	"path/filepath"
	"testing"
)

// The status text's strings (the NS lines, Cpus_allowed_list) outlive the
// reads of the files after it: a long io file must not overwrite them.
func TestStatusStringsSurviveLaterReads(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	long := "rchar: 123456789012345\nwchar: 123456789012345\nsyscr: 123456789012\nsyscw: 123456789012\n" +
		"read_bytes: 123456789012345\nwrite_bytes: 123456789012345\ncancelled_write_bytes: 123456789012\n"
	for _, pid := range []string{"1", "100", "300"} {
		if err := os.WriteFile(filepath.Join(h.Proc, pid, "io"), []byte(long), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.MustSample(h.Now)
	wantStrings(t, h, map[string]map[uint32]string{
		"proc.namespaces.pid":  {1: "1", 100: "100", 300: "300,1"},
		"proc.namespaces.tgid": {300: "300,1"},
		"proc.namespaces.sid":  {300: "290,0"},
	})
	h.WantU64("proc.io.rchar", 100, 123456789012345)
}
