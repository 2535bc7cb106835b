package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadsARegularFileUpToTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := Read(path, 5)
	if err != nil || string(data) != "12345" {
		t.Errorf("got %q, %v; want \"12345\"", data, err)
	}
}

func TestRefusesAFileOverTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("123456"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, 5)
	if err == nil || !strings.Contains(err.Error(), "larger than 5 bytes") || !strings.Contains(err.Error(), path) {
		t.Errorf("a 6-byte file with limit 5: %v", err)
	}
}

func TestRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(dir, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

// A FIFO with no writer would block an ordinary open for ever; Read
// refuses it at once. Were it to block, the test would hang and the test
// binary's timeout would report it.
func TestRefusesAFIFOWithoutBlocking(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(fifo, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}

func TestAMissingFileIsErrNotExist(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "none"), 10)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
