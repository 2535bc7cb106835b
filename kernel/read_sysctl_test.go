package kernel

import (
	"os"
	"strings"
	"testing"
)

// A numeric sysctl file gives its whole text to the first read and ends
// at any later offset: read from an empty buffer, in one call or through
// a kept fd, it still comes whole (its fields all there, the newline at
// the end), where reads that grew the buffer from nothing stopped after
// 8 bytes.
func TestSysctlFilesReadWhole(t *testing.T) {
	fields := map[string]int{
		"/proc/sys/fs/file-nr":      3,
		"/proc/sys/fs/inode-state":  7,
		"/proc/sys/fs/dentry-state": 6,
	}
	for path, want := range fields {
		if _, err := os.Stat(path); err != nil {
			t.Skipf("%s: %v (not Linux's /proc)", path, err)
		}
		once, err := ReadFileInto(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		kept := NewFileKept("/proc", path, true)
		again, err := kept.Read(nil)
		kept.Close()
		if err != nil {
			t.Fatal(err)
		}
		for how, text := range map[string][]byte{"ReadFileInto": once, "a kept File": again} {
			if got := len(strings.Fields(string(text))); got != want || !strings.HasSuffix(string(text), "\n") {
				t.Errorf("%s of %s: %q, %d fields, want %d and a newline", how, path, text, got, want)
			}
		}
	}
}
