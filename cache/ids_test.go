package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type warnings []error

func (w *warnings) add(err error) { *w = append(*w, err) }

func TestIDMapIsStableAndPersistent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostcache.3")
	var w warnings
	m := LoadIDMap(path, w.add)
	a, b := m.ID("sda"), m.ID("sdb")
	if a != 0 || b != 1 || m.ID("sda") != 0 {
		t.Fatalf("ids %d %d", a, b)
	}
	again := LoadIDMap(path, w.add) // a restart
	if again.ID("sdb") != 1 || again.ID("sdc") != 2 || again.ID("sda") != 0 {
		t.Error("ids changed across a reload")
	}
	if len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
}

// A damaged line costs only itself: known names keep their ids, and no id
// read from the file, even from a damaged line, is given to a new name.
func TestIDFileDamageCostsOnlyItsLines(t *testing.T) {
	for _, c := range []struct {
		name, file string
		keep       map[string]uint32 // names that keep their ids
		taken      []uint32          // ids no new name may get
	}{
		{"a garbage line", "hostcache-instance-ids 2 next=3\n0 sda\ngarbage\n2 sdc\n",
			map[string]uint32{"sda": 0, "sdc": 2}, []uint32{0, 1, 2}},
		{"an id without a name", "hostcache-instance-ids 1\n0 sda\n7\n1 sdb\n",
			map[string]uint32{"sda": 0, "sdb": 1}, []uint32{7}},
		{"a repeated name keeps its first id", "hostcache-instance-ids 1\n0 sda\n5 sda\n1 sdb\n",
			map[string]uint32{"sda": 0, "sdb": 1}, []uint32{5}},
		{"an id claimed twice stays with the first", "hostcache-instance-ids 1\n0 sda\n0 sdb\n",
			map[string]uint32{"sda": 0}, []uint32{0}},
		{"no header", "0 sda\n1 sdb\n", map[string]uint32{"sda": 0, "sdb": 1}, nil},
		// Cut mid-name, the last line still reads (as "sd"); the mark keeps
		// the lost lines' ids from new names.
		{"truncated mid-line", "hostcache-instance-ids 2 next=40\n0 sda\n1 sd", map[string]uint32{"sda": 0, "sd": 1}, []uint32{39}},
		{"an id beyond 31 bits", "hostcache-instance-ids 1\n0 sda\n4294967296 sdz\n", map[string]uint32{"sda": 0}, nil},
		{"binary junk", "\x00\xff\n0 sda\n\r\n", map[string]uint32{"sda": 0}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hostcache.3")
			os.WriteFile(path, []byte(c.file), 0o644)
			var w warnings
			m := LoadIDMap(path, w.add)
			for name, id := range c.keep {
				if got := m.ID(name); got != id {
					t.Errorf("%s: id %d, want %d", name, got, id)
				}
			}
			given := map[uint32]bool{}
			for _, id := range c.keep {
				given[id] = true
			}
			for i := range 50 {
				id := m.ID(fmt.Sprintf("new%d", i))
				if given[id] || contains(c.taken, id) {
					t.Fatalf("new%d got id %d, already taken", i, id)
				}
				given[id] = true
			}
			if c.name != "no header" && c.name != "truncated mid-line" && len(w) == 0 {
				t.Error("damage not reported")
			}
			if len(w) > 1 {
				t.Errorf("%d warnings for one file: %v", len(w), w)
			}
			if len(w) == 1 && !strings.Contains(w[0].Error(), path) {
				t.Errorf("the warning does not name the file: %v", w[0])
			}
		})
	}
}

func contains(ids []uint32, id uint32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// The high-water mark keeps vanished devices' ids from coming back even
// when their lines are gone.
func TestIDHighWaterMark(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostcache.3")
	m := LoadIDMap(path, nil)
	for i := range 5 {
		m.ID(fmt.Sprintf("dev%d", i))
	}
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	os.WriteFile(path, []byte(lines[0]+"\n"+lines[1]+"\n"), 0o644) // keep dev0 only
	if id := LoadIDMap(path, nil).ID("new"); id != 5 {
		t.Errorf("new name got id %d, want 5 (dev1-dev4 had 1-4)", id)
	}
}

// While the id file cannot be written, new names get ids from the upper
// range, made from their names: the same after a restart, and never one
// a saved name has.
func TestIDsWhenTheFileCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "notadir")
	os.WriteFile(blocker, nil, 0o644) // the id file's "directory" is a file: writes fail, even as root
	path := filepath.Join(blocker, "hostcache.3")
	var w warnings
	m := LoadIDMap(path, w.add)
	a, b := m.ID("sda"), m.ID("sdb")
	m.Save()
	if a < hashIDBase || b < hashIDBase || a == b {
		t.Fatalf("ids %d %d, want distinct ids from the upper range", a, b)
	}
	for range 100 {
		m.Save() // every sample's save fails
	}
	if len(w) != 1 {
		t.Errorf("%d warnings for 101 failed saves, want 1 (rate-limited)", len(w))
	}
	restarted := LoadIDMap(path, nil)
	if restarted.ID("sdb") != b || restarted.ID("sda") != a {
		t.Error("ids from names changed across a restart")
	}
	// Once it can be written, they are saved like any other.
	os.Remove(blocker)
	restarted.dirty = true
	restarted.Save()
	if again := LoadIDMap(path, nil); again.ID("sda") != a || again.ID("sdc") >= hashIDBase {
		t.Error("ids not kept once the file could be written")
	}
}

// A file deleted while the agent runs is written again.
func TestIDFileDeletedWhileRunning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostcache.3")
	m := LoadIDMap(path, nil)
	m.ID("sda")
	m.ID("sdb")
	os.Remove(path)
	m.Save()
	if LoadIDMap(path, nil).ID("sdb") != 1 {
		t.Error("the deleted file was not written again")
	}
}

func TestRateLimitedWarnings(t *testing.T) {
	var w warnings
	r := newRateLimited(w.add)
	now := time.Unix(0, 0)
	r.now = func() time.Time { return now }
	for range 10 {
		r.say(fmt.Errorf("x"))
	}
	now = now.Add(61 * time.Second)
	r.say(fmt.Errorf("y"))
	if len(w) != 2 || !strings.Contains(w[1].Error(), "9 more") {
		t.Errorf("warnings %v", w)
	}
}

// Control bytes in names are escaped, and names kept apart.
func TestInstanceNamesPrintable(t *testing.T) {
	in := NewInstances([]Instance{{ID: 1, Name: "a\x00b"}, {ID: 2, Name: "tab\there"}, {ID: 3, Name: `a\x00b`}, {ID: 4, Name: "ok"}})
	var names []string
	for _, x := range in.All() {
		names = append(names, x.Name)
	}
	want := []string{`a\x00b`, `tab\there`, `a\x00b (id 3)`, "ok"}
	if strings.Join(names, "|") != strings.Join(want, "|") {
		t.Errorf("names %q, want %q", names, want)
	}
	if id, ok := in.Lookup(`a\x00b`); !ok || id != 1 {
		t.Errorf("lookup by the printable name: %d %v", id, ok)
	}
}

// FuzzIDFile: whatever the file holds, loading never panics, no two names
// share an id, and the names read keep their ids through a save and load.
func FuzzIDFile(f *testing.F) {
	f.Add([]byte("hostcache-instance-ids 2 next=3\n0 sda\n1 sdb\n2 sdc\n"))
	f.Add([]byte("hostcache-instance-ids 1\n0 sda\n0 sdb\nx\n5 sda\n"))
	f.Add([]byte("\x00\n1 \n 2 a\n2147483647 top\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "hostcache.1")
		os.WriteFile(path, data, 0o644)
		m := LoadIDMap(path, nil)
		seen := map[uint32]string{}
		for name, id := range m.ids {
			if other, dup := seen[id]; dup {
				t.Fatalf("%q and %q share id %d", name, other, id)
			}
			seen[id] = name
		}
		known := len(m.ids)
		if id := m.ID("a-new-name-surely"); seen[id] != "" && known > 0 {
			t.Fatalf("a new name got %q's id %d", seen[id], id)
		}
		m.Save()
		again := LoadIDMap(path, nil)
		for name, id := range m.ids {
			if again.ids[name] != id {
				t.Fatalf("%q: id %d, %d after a save and load", name, id, again.ids[name])
			}
		}
	})
}

// SaveAll writes changed maps at once, and looks for a deleted file of an
// unchanged map only once every idFileCheck: the look is a stat, and
// SaveAll runs after every sample of every collector.
func TestSaveAllLooksForDeletedFilesOnceAMinute(t *testing.T) {
	var maps IDMaps
	path := filepath.Join(t.TempDir(), "hostcache.3")
	m := maps.Load(path, nil)
	now := time.Unix(1795320600, 0)
	m.ID("sda")
	maps.SaveAll(now)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("a changed map was not written: %v", err)
	}
	os.Remove(path)
	maps.SaveAll(now.Add(time.Second))
	if _, err := os.Stat(path); err == nil {
		t.Error("an unchanged map's file was looked for within the minute")
	}
	m.ID("sdb")
	maps.SaveAll(now.Add(2 * time.Second))
	if LoadIDMap(path, nil).ID("sdb") != 1 {
		t.Error("a changed map was not written at once")
	}
	os.Remove(path)
	maps.SaveAll(now.Add(2*time.Second + idFileCheck))
	if LoadIDMap(path, nil).ID("sdb") != 1 {
		t.Error("the deleted file was not written again after idFileCheck")
	}
}

// A forgotten name leaves the file at the next save, and neither its id
// nor any below the mark is given again, after a restart either: a domain
// whose names never return keeps a file of the names that exist.
func TestIDMapForget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostcache.38")
	m := LoadIDMap(path, nil)
	for i := range 100 {
		name := fmt.Sprintf("%d", 32768+i)
		m.ID(name)
		m.Forget(name)
	}
	kept := m.ID("kept")
	m.Save()
	if kept != 100 {
		t.Errorf("a new name after 100 forgotten got %d, want 100", kept)
	}
	data, _ := os.ReadFile(path)
	if lines := strings.Count(string(data), "\n"); lines != 2 {
		t.Errorf("the file has %d lines, want the header and kept's:\n%s", lines, data)
	}
	again := LoadIDMap(path, nil)
	if again.ID("kept") != kept || again.ID("32768") != 101 {
		t.Errorf("after a restart kept is %d (want %d) and a forgotten name comes back as %d (want 101)",
			again.ID("kept"), kept, again.ID("32768"))
	}
	m.Forget("never there") // no-op
}
