package kernel

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// On the real /proc the fd is kept and every read sees fresh text:
// /proc/uptime moves on every 10 ms.
func TestKernelFileKeepsFDOnProcfs(t *testing.T) {
	if !isPseudoFS("/proc") {
		t.Skip("/proc is not procfs here")
	}
	f := NewFile("/proc", "/proc/uptime")
	defer f.Close()
	if !f.keep {
		t.Fatal("procfs file not kept open")
	}
	first, err := f.Read(nil)
	if err != nil || len(first) == 0 {
		t.Fatalf("first read: %q, %v", first, err)
	}
	first = bytes.Clone(first)
	fd := f.fd
	time.Sleep(50 * time.Millisecond)
	again, err := f.Read(nil)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(again, first) {
		t.Fatalf("re-read after 50 ms returned the old text %q", first)
	}
	if f.fd != fd {
		t.Fatalf("fd changed from %d to %d: not kept", fd, f.fd)
	}
}

// In a fixture tree files are replaced between samples: each read must see
// the current file, and a removed file is an error.
func TestKernelFileRereadsPlainFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "loadavg")
	f := NewFile(dir, path)
	if f.keep {
		t.Skip("temp dir is a pseudo filesystem")
	}
	for _, want := range []string{"one\n", "two\n"} {
		os.Remove(path)
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := f.Read(nil)
		if err != nil || string(got) != want {
			t.Fatalf("read = %q, %v; want %q", got, err, want)
		}
	}
	os.Remove(path)
	if _, err := f.Read(nil); !os.IsNotExist(err) {
		t.Fatalf("removed file: err = %v, want not-exist", err)
	}
}

// A large file is read whole, across several preads.
func TestKernelFileReadsLargeFilesWhole(t *testing.T) {
	if !isPseudoFS("/proc") {
		t.Skip("/proc is not procfs here")
	}
	want, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	f := NewFile("/proc", "/proc/self/maps")
	defer f.Close()
	got, err := f.Read(make([]byte, 0, 16))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < len(want)/2 || !bytes.HasPrefix(got, want[:min(len(want), 40)]) {
		t.Fatalf("got %d bytes, want about %d", len(got), len(want))
	}
}

// NewFileKept keeps a plain file's fd, and a rewrite in place (what a
// generated tree standing in for /proc gets) shows at the next read,
// shorter text included.
func TestKernelFileKeptOnPlainFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "diskstats")
	if err := os.WriteFile(path, []byte("first text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := NewFileKept(dir, path, true)
	defer f.Close()
	for _, want := range []string{"first text\n", "second, longer text\n", "third\n"} {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil { // truncates in place
			t.Fatal(err)
		}
		got, err := f.Read(nil)
		if err != nil || string(got) != want {
			t.Fatalf("read = %q, %v; want %q", got, err, want)
		}
		if f.fd < 0 {
			t.Fatal("the fd was not kept")
		}
	}
}

// ReadAttr reads a kept attribute whole: shorter after a rewrite in
// place, and past a page (where one read may not be all) by reading on.
func TestKernelFileReadAttr(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "operstate")
	f := NewFileKept(dir, path, true)
	defer f.Close()
	var buf []byte
	long := strings.Repeat("x", 3*attrPage) + "\n"
	for _, want := range []string{"up\n", "lowerlayerdown\n", "down\n", long, strings.Repeat("y", attrPage), "up\n"} {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil { // truncates in place
			t.Fatal(err)
		}
		var err error
		if buf, err = f.ReadAttr(buf); err != nil || string(buf) != want {
			t.Fatalf("read %d bytes (%v), want %d", len(buf), err, len(want))
		}
	}
	if isPseudoFS("/sys") {
		sys := NewFile("/sys", "/sys/class/net/lo/mtu")
		defer sys.Close()
		got, err := sys.ReadAttr(nil)
		want, rerr := os.ReadFile("/sys/class/net/lo/mtu")
		if err != nil || rerr != nil || !bytes.Equal(got, want) {
			t.Errorf("lo's mtu by ReadAttr = %q (%v), by os.ReadFile %q (%v)", got, err, want, rerr)
		}
	}
}
