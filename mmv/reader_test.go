package mmv

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

func writeMMV(t *testing.T, dir, name string, b *mmvtest.Built) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := b.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// A Reader reads the file whole each time, sees it shrink and refuses a
// file over the byte limit.
func TestReaderRereadsTheFile(t *testing.T) {
	b := mmvtest.Build(mmvtest.AllTypes(3))
	path := writeMMV(t, t.TempDir(), "app", b)
	r, err := Open(path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := r.Read()
	if err != nil || string(data) != string(b.Data) {
		t.Fatalf("first read: %d bytes, %v", len(data), err)
	}
	f := mustParse(t, data)
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	data, err = r.Read()
	if err != nil || len(data) != 100 || f.Fits(data) {
		t.Fatalf("after shrinking to 100 bytes: %d bytes, %v, fits %v", len(data), err, f.Fits(data))
	}
	if got := read(&f.Values[len(f.Values)-1], data); got != nil {
		t.Errorf("a value past the end of the shrunk file read as %v", got)
	}
	lim := DefaultLimits()
	lim.MaxBytes = 99
	small, err := Open(path, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if _, err := small.Read(); !errors.Is(err, ErrLimit) {
		t.Errorf("100 bytes with a limit of 99: %v, want ErrLimit", err)
	}
}

// A FIFO planted in the directory is refused at once (a blocking open
// would hang the test until its timeout), and so are a symbolic link to a
// valid file and a directory.
func TestReaderRefusesFIFOsLinksAndDirectories(t *testing.T) {
	dir := t.TempDir()
	target := writeMMV(t, dir, "real", mmvtest.Build(mmvtest.AllTypes(1)))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, link, dir} {
		if r, err := Open(path, DefaultLimits()); err == nil {
			r.Close()
			t.Errorf("Open(%s) succeeded", path)
		}
	}
	if _, err := Open(link, DefaultLimits()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a symbolic link: %v, want it refused before it is opened", err)
	}
}

// Replaced tells a restarted writer's new file (and a removed one) from
// the open one.
func TestReaderReplaced(t *testing.T) {
	dir := t.TempDir()
	path := writeMMV(t, dir, "app", mmvtest.Build(mmvtest.AllTypes(1)))
	r, err := Open(path, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Replaced() {
		t.Error("the open file is reported replaced")
	}
	writeMMV(t, dir, "app", mmvtest.Build(mmvtest.AllTypes(2)))
	if !r.Replaced() {
		t.Error("a file renamed over the path is not reported replaced")
	}
	os.Remove(path)
	if !r.Replaced() {
		t.Error("a removed file is not reported replaced")
	}
}
