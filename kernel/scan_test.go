package kernel

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scanAll collects the lines ScanLines gives.
func scanAll(t *testing.T, f *File) []string {
	t.Helper()
	var lines []string
	if _, err := f.ScanLines(nil, func(l []byte) { lines = append(lines, string(l)) }); err != nil {
		t.Fatal(err)
	}
	return lines
}

// Lines cut at every chunk edge, one line longer than a chunk and a last
// line without a newline all come out whole, once.
func TestScanLinesChunks(t *testing.T) {
	var want []string
	for i := 0; len(strings.Join(want, "\n")) < 5*ScanChunk; i++ {
		want = append(want, strings.Repeat("x", i%300))
	}
	want = append(want, strings.Repeat("long", ScanChunk/2), "last")
	path := filepath.Join(t.TempDir(), "table")
	os.WriteFile(path, []byte(strings.Join(want, "\n")), 0o644)
	got := scanAll(t, NewFile(filepath.Dir(path), path))
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
	}
}

// On procfs the kept fd is read on with pread; a second scan reads the
// file afresh from its start. The lines are the file's lines.
func TestScanLinesProcfs(t *testing.T) {
	const path = "/proc/self/mountinfo"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	f := NewFile("/proc", path)
	for pass := 0; pass < 2; pass++ {
		got := scanAll(t, f)
		if n := bytes.Count(data, []byte("\n")); len(got) != n {
			t.Errorf("pass %d: %d lines, want %d", pass, len(got), n)
		}
	}
}

func TestScanLinesMissing(t *testing.T) {
	f := NewFile(t.TempDir(), "/nonexistent/net/tcp")
	if _, err := f.ScanLines(nil, func([]byte) {}); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestSocketParsers(t *testing.T) {
	var s TCPStates
	for _, l := range []string{"  sl  local_address rem_address   st tx_queue",
		"   0: 00000000:AD21 00000000:0000 0A 00000000:00000000", "   1: 0100007F:07E8 0100007F:B2C4 01 0",
		"   2: 0100007F:07E8 0100007F:B2C4 0C 0", "   3: short", ""} {
		s.AddTCP([]byte(l))
	}
	if s[10] != 1 || s[1] != 1 || s[0] != 0 {
		t.Errorf("tcp states %v", s)
	}
	var u UnixCounts
	for _, l := range []string{"Num       RefCount Protocol Flags    Type St Inode Path",
		"0000000097bf66a3: 00000002 00000000 00010000 0001 01 446330 /run/x", "00: 00000002 00000000 00000000 0001 03 1",
		"00: 00000002 00000000 00000000 0002 01 2", "00: 00000002 00000000 00000000 0005 03 3", "00: 2 0 0"} {
		u.AddUnix([]byte(l))
	}
	if u != (UnixCounts{Datagram: 1, Stream: 2, StreamListen: 1, StreamEstablished: 1}) {
		t.Errorf("unix %+v", u)
	}
}
