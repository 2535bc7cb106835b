package kernel

import (
	"os"
	"testing"

	"github.com/prometheus/procfs"
)

// The agent's own io file, parsed by ParsePidIO and by procfs.
func TestParsePidIOAgreesWithProcfs(t *testing.T) {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io here: %v", err)
	}
	var got PidIO
	if err := ParsePidIO(data, &got); err != nil {
		t.Fatal(err)
	}
	p, err := procfs.Self()
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.IO()
	if err != nil {
		t.Fatal(err)
	}
	// Both read the file at different moments: this test's own reads
	// only grow the counters, so procfs's reading is at least ours.
	if want.RChar < got.RChar || want.SyscR < got.SyscR || got.RChar == 0 {
		t.Errorf("ours %+v, procfs %+v", got, want)
	}
}

func TestParsePidIOFixed(t *testing.T) {
	text := "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\ncancelled_write_bytes: 7\n"
	var io PidIO
	if err := ParsePidIO([]byte(text), &io); err != nil {
		t.Fatal(err)
	}
	if io != (PidIO{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("got %+v", io)
	}
	for _, bad := range []string{"", "rchar: 1\n", text + "rchar: x\n"} {
		if err := ParsePidIO([]byte(bad), &io); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
