package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// blockDir puts a file in the place of dir, so every write below it fails,
// even as root; the returned function puts dir back.
func blockDir(t *testing.T, dir string) func() {
	t.Helper()
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(dir)
		if err := os.Rename(dir+".away", dir); err != nil {
			t.Fatal(err)
		}
	}
}

// A sample's save that fails after sequential ids were handed out does not
// let a restart give them to other names: the write before the first of
// them marked a block taken.
func TestAFailedSaveAfterIDsWereGivenNeverLeadsToReuse(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ids")
	path := filepath.Join(dir, "hostcache.3")
	var maps IDMaps
	m := maps.Load(path, nil)
	given := map[uint32]string{}
	for i := range 5 {
		name := fmt.Sprintf("veth%d", i)
		id := m.ID(name)
		if id >= hashIDBase {
			t.Fatalf("%s got id %d from the upper range, the file could be written", name, id)
		}
		given[id] = name
	}
	unblock := blockDir(t, dir)
	maps.SaveAll(time.Unix(1795320600, 0)) // fails
	unblock()
	restarted := LoadIDMap(path, nil)
	for i := range 5 {
		name := fmt.Sprintf("new%d", i)
		if id := restarted.ID(name); given[id] != "" {
			t.Errorf("%s got id %d, %s's before the restart", name, id, given[id])
		}
	}
	if restarted.ID("veth0") != 0 {
		t.Error("veth0, in the write made before its id was given, lost its id")
	}
}

// A deferred map writes once when a sample's first new name comes, once
// at the sample's end, and not for the names in between.
func TestADeferredMapWritesBeforeTheFirstNewIDOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ids")
	path := filepath.Join(dir, "hostcache.3")
	var maps IDMaps
	m := maps.Load(path, nil)
	m.ID("veth0")
	if _, saved := LoadIDMap(path, nil).ids["veth0"]; !saved {
		t.Fatal("the first new name was not written before its id was given")
	}
	unblock := blockDir(t, dir)
	for i := 1; i < 500; i++ {
		if id := m.ID(fmt.Sprintf("veth%d", i)); id != uint32(i) {
			t.Fatalf("veth%d got id %d with the directory gone, want %d (covered by the mark)", i, id, i)
		}
	}
	unblock()
	maps.SaveAll(time.Unix(1795320600, 0))
	if again := LoadIDMap(path, nil); again.ID("veth499") != 499 || again.ID("next") != 500 {
		t.Error("the sample's save did not write every name and the exact mark")
	}
}

// After a failed write, the sample's other new names get ids from the
// upper range without another try; the next sample tries again first.
func TestTheNextSampleLearnsTheFileCanBeWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ids")
	os.Mkdir(dir, 0o755)
	path := filepath.Join(dir, "hostcache.3")
	var maps IDMaps
	m := maps.Load(path, nil)
	unblock := blockDir(t, dir)
	a, b := m.ID("veth-a"), m.ID("veth-b")
	if a < hashIDBase || b < hashIDBase {
		t.Fatalf("ids %d %d while the file could not be written", a, b)
	}
	now := time.Unix(1795320600, 0)
	maps.SaveAll(now) // fails
	unblock()
	c := m.ID("veth-c")
	if c >= hashIDBase {
		t.Errorf("veth-c got id %d from the upper range, the file could be written again", c)
	}
	again := LoadIDMap(path, nil)
	if again.ID("veth-a") != a || again.ID("veth-b") != b || again.ID("veth-c") != c {
		t.Error("the write before veth-c's id did not keep every id")
	}
}

// A file that exists but cannot be read holds ids nobody knows: it is
// never overwritten, and new names get ids from the upper range.
func TestAnUnreadableFileIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostcache.3")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	var w warnings
	m := LoadIDMap(path, w.add)
	if id := m.ID("sda"); id < hashIDBase {
		t.Errorf("sda got sequential id %d beside a file that could not be read", id)
	}
	m.Save()
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the unreadable file was replaced: %v", err)
	}
	if len(w) != 1 {
		t.Errorf("warnings %v, want one", w)
	}
}
