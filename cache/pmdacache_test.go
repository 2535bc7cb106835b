package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fixedNow is the time test maps stamp new lines with.
var fixedNow = time.Unix(1795770000, 0)

// loadPMDACacheAt loads a libpcp_pmda id file, stamping new lines fixedNow.
func loadPMDACacheAt(path string, warn func(error)) *IDMap {
	return loadIDMap(path, warn, &pmdaCacheFormat{stamps: map[string]int64{}, now: func() time.Time { return fixedNow }})
}

// copyFixture copies testdata/pmdacache/<rel> into a fresh directory and
// returns the copy's path, named as libpcp_pmda names it.
func copyFixture(t *testing.T, rel, as string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "pmdacache", rel))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), as)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPMDACachePathIsLibpcpsName(t *testing.T) {
	if got := PMDACachePath("/var/lib/pcp/config/pmda", 60, 40); got != "/var/lib/pcp/config/pmda/60.40" {
		t.Errorf("path %q", got)
	}
	if got := PMDACachePath("", 60, 40); got != "" {
		t.Errorf("no directory gives %q, want in memory only", got)
	}
}

func TestPMDACacheRoundTrip(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	m := LoadPMDACache(dir, 60, 3, w.add)
	for i, name := range []string{"lo", "eth0", "ifb0"} {
		if id := m.ID(name); id != uint32(i) {
			t.Fatalf("%s got id %d, want %d", name, id, i)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "60.3"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != "2 0 2147483647 hostcache-next=3" || len(lines) != 4 {
		t.Fatalf("file:\n%s", data)
	}
	for i, name := range []string{"lo", "eth0", "ifb0"} {
		f := strings.Fields(lines[i+1])
		if len(f) != 3 || f[0] != strconv.Itoa(i) || f[2] != name {
			t.Errorf("line %d is %q, want id %d, a stamp and %s", i+2, lines[i+1], i, name)
		}
	}
	again := LoadPMDACache(dir, 60, 3, w.add) // a restart
	if again.ID("ifb0") != 2 || again.ID("lo") != 0 || again.ID("ifb1") != 3 {
		t.Error("ids changed across a reload")
	}
	if len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
}

// The files pmdalinux wrote on this machine load with every id they hold,
// and a save writes every line back as it was, stamps included.
func TestPMDACacheLoadsPmdalinuxFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pmdacache", "machine", "60.*"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			path := copyFixture(t, filepath.Join("machine", filepath.Base(file)), filepath.Base(file))
			before, _ := os.ReadFile(path)
			want := loadLikeLibpcp(string(before))
			if want.stopped != "" || len(want.names) == 0 {
				t.Fatalf("libpcp's rules read the fixture badly: %+v", want)
			}
			var w warnings
			m := loadPMDACacheAt(path, w.add)
			for id, name := range want.names {
				if got := m.ID(name); int64(got) != id {
					t.Errorf("%s got id %d, pmdalinux's is %d", name, got, id)
				}
			}
			if id := m.ID("a new name"); int64(id) != want.nextID() {
				t.Errorf("a new name got id %d, want %d (after pmdalinux's highest)", id, want.nextID())
			}
			m.Save()
			after, _ := os.ReadFile(path)
			oldLines := strings.SplitAfter(string(before), "\n")[1:]
			if !strings.HasPrefix(string(after), "2 0 2147483647 hostcache-next=") ||
				!strings.Contains(string(after), strings.Join(oldLines, "")) {
				t.Errorf("pmdalinux's lines not written back as they were:\n%s", after)
			}
			if len(w) != 0 {
				t.Errorf("warnings: %v", w)
			}
		})
	}
}

// A damaged line costs only itself, and no id it shows is given to a new
// name; the warning names the file and the line.
func TestPMDACacheDamageCostsOnlyItsLines(t *testing.T) {
	for _, c := range []struct {
		file  string
		keep  map[string]uint32 // names that keep their ids
		taken []uint32          // ids no new name may get
		lines []int             // the lines reported
	}{
		{"blank-line", map[string]uint32{"lo": 0, "eth0": 1}, nil, []int{3}},
		{"id-without-name", map[string]uint32{"lo": 0, "eth0": 1}, []uint32{7}, []int{3}},
		{"bad-header", map[string]uint32{"lo": 0, "eth0": 1}, nil, []int{1}},
		{"key-without-bracket", map[string]uint32{"eth0": 1}, []uint32{0}, []int{2}},
		{"id-twice", map[string]uint32{"lo": 0, "ifb0": 1}, nil, []int{3}},
		{"name-twice", map[string]uint32{"lo": 0, "eth0": 1}, []uint32{4}, []int{3}},
		{"long-line", map[string]uint32{"lo": 0, "eth0": 1}, []uint32{3}, []int{3}},
		{"line-without-id", map[string]uint32{"lo": 0, "eth0": 1}, nil, []int{3}},
		{"truncated", map[string]uint32{"lo": 0, "eth0": 1}, []uint32{3}, []int{4}},
		{"id-beyond-31-bits", map[string]uint32{"lo": 0, "eth0": 1}, nil, []int{3}},
		{"unusual-but-sound", map[string]uint32{"lo": 0, "eth0": 5, "ifb0": 2}, nil, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			path := copyFixture(t, filepath.Join("damaged", c.file), "60.3")
			var w warnings
			m := loadPMDACacheAt(path, w.add)
			given := map[uint32]bool{}
			for name, id := range c.keep {
				if got := m.ID(name); got != id {
					t.Errorf("%s: id %d, want %d", name, got, id)
				}
				given[id] = true
			}
			for i := range 20 {
				id := m.ID(fmt.Sprintf("new%d", i))
				if given[id] || contains(c.taken, id) {
					t.Fatalf("new%d got id %d, already taken", i, id)
				}
				given[id] = true
			}
			checkDamageReport(t, w, path, c.lines)
		})
	}
}

// checkDamageReport wants one warning naming the file and each line given,
// or none when no line is given.
func checkDamageReport(t *testing.T, w warnings, path string, lines []int) {
	t.Helper()
	if len(lines) == 0 {
		if len(w) != 0 {
			t.Errorf("warnings for a sound file: %v", w)
		}
		return
	}
	if len(w) != 1 {
		t.Fatalf("%d warnings, want 1: %v", len(w), w)
	}
	msg := w[0].Error()
	if !strings.Contains(msg, path) {
		t.Errorf("the warning does not name the file: %s", msg)
	}
	for _, n := range lines {
		if !strings.Contains(msg, fmt.Sprintf("line %d: ", n)) && !strings.Contains(msg, fmt.Sprintf("; line %d: ", n)) {
			t.Errorf("the warning does not name line %d: %s", n, msg)
		}
	}
}

// The mark in the header keeps the ids of lines lost since (culled by
// hand, or never saved after a block was marked taken) from new names.
func TestPMDACacheMarkKeepsLostLinesIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "60.3")
	m := loadPMDACacheAt(path, nil)
	for i := range 5 {
		m.ID(fmt.Sprintf("veth%d", i))
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(path, []byte(lines[0]+lines[1]), 0o644) // veth0 only
	if id := loadPMDACacheAt(path, nil).ID("new"); id != 5 {
		t.Errorf("a new name got id %d, want 5 (veth1-veth4 had 1-4)", id)
	}
	if got := loadLikeLibpcp(lines[0] + lines[1]); got.stopped != "" || got.names[0] != "veth0" {
		t.Errorf("libpcp's rules do not read a header with the mark: %+v", got)
	}
}

// A deferred map marks a block taken in the header before its first new
// id; the file stays one libpcp_pmda reads whole at every step.
func TestPMDACacheDeferredSaving(t *testing.T) {
	dir := t.TempDir()
	var maps IDMaps
	m := maps.LoadPMDACache(dir, 60, 40, nil)
	path := filepath.Join(dir, "60.40")
	m.ID("24::cpu0")
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), fmt.Sprintf("2 0 2147483647 hostcache-next=%d\n", 1+idReserveBlock)) {
		t.Errorf("the first write does not mark a block taken:\n%s", data)
	}
	m.ID("24::cpu1")
	maps.SaveAll(fixedNow)
	data, _ = os.ReadFile(path)
	got := loadLikeLibpcp(string(data))
	if got.stopped != "" || got.names[0] != "24::cpu0" || got.names[1] != "24::cpu1" || got.nextID() != 2 {
		t.Errorf("libpcp's rules read %+v from:\n%s", got, data)
	}
	if !strings.HasPrefix(string(data), "2 0 2147483647 hostcache-next=2\n") {
		t.Errorf("the mark does not come down once every id is in the file:\n%s", data)
	}
}

// awkwardNames are names a file must carry exactly: spaces, digits only,
// tabs, control and UTF-8 bytes, a bracket past the start, the longest
// name written.
func awkwardNames() []string {
	return []string{
		"24", "NMI::cpu0", "scsi0:0:0:0 Direct-Access", "DMA32::node0", "a\tb", "cr\r",
		"été", "x[0a]", "0", strings.Repeat("n", pmdaCacheNameMax),
	}
}

// unwritableNames cannot be lines load_cache reads back whole: they get
// ids from the upper range and stay out of the file.
func unwritableNames() []string {
	return []string{" lead", "\tlead", "[key] x", "new\nline", "nul\x00", strings.Repeat("n", pmdaCacheNameMax+1)}
}

// A file hostcache writes, whatever the names, is read whole by
// libpcp_pmda's rules, every name with the id hostcache gave it, and
// pmdalinux's next new name gets an id no name has.
func TestPMDACacheWrittenFilesReadAsLibpcpReadsThem(t *testing.T) {
	path := copyFixture(t, "machine/60.40", "60.40")
	m := loadPMDACacheAt(path, nil)
	given := map[string]uint32{}
	for _, name := range append(awkwardNames(), unwritableNames()...) {
		given[name] = m.ID(name)
	}
	for _, name := range unwritableNames() {
		if given[name] < hashIDBase {
			t.Errorf("%q got sequential id %d, though it cannot be written", name, given[name])
		}
	}
	m.Save() // names with ids from the upper range are saved here
	data, _ := os.ReadFile(path)
	got := loadLikeLibpcp(string(data))
	if got.stopped != "" || got.ignored != 0 {
		t.Fatalf("libpcp's rules stop or ignore lines (%+v) in:\n%s", got, data)
	}
	want := loadLikeLibpcp(mustRead(t, "machine/60.40"))
	for id, name := range want.names {
		if got.names[id] != name {
			t.Errorf("pmdalinux's %q (%d) reads back as %q", name, id, got.names[id])
		}
	}
	for _, name := range awkwardNames() {
		if got.names[int64(given[name])] != name {
			t.Errorf("%q (%d) reads back as %q", name, given[name], got.names[int64(given[name])])
		}
	}
	if next := got.nextID(); m.used[uint32(next)] {
		t.Errorf("pmdalinux's next id %d is one hostcache gave", next)
	}
	if reread := loadPMDACacheAt(path, nil); !sameIDs(reread, given) {
		t.Error("hostcache reads its own file back with other ids")
	}
}

func mustRead(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "pmdacache", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// sameIDs says whether m gives every name the id given.
func sameIDs(m *IDMap, given map[string]uint32) bool {
	names := make([]string, 0, len(given))
	for name := range given {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if m.ID(name) != given[name] {
			return false
		}
	}
	return true
}

// A name that cannot be written keeps the id made from it across
// restarts, like a name that could not be saved.
func TestPMDACacheUnwritableNamesKeepTheirHashIDs(t *testing.T) {
	dir := t.TempDir()
	first := LoadPMDACache(dir, 60, 11, nil)
	ids := map[string]uint32{}
	for _, name := range unwritableNames() {
		ids[name] = first.ID(name)
	}
	if !sameIDs(LoadPMDACache(dir, 60, 11, nil), ids) {
		t.Error("ids made from names changed across a restart")
	}
}

// Whatever bytes a file holds, loading never gives a new name an id a
// line shows, and the file written after is read whole by libpcp's rules.
func FuzzPMDACacheFile(f *testing.F) {
	for _, seed := range []string{"2 0 2147483647\n0 1 lo\n", "2 0 2147483647 hostcache-next=9\n3 1 [ab] x y\n\n", "1 0\n5 eth0\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(t.TempDir(), "60.3")
		os.WriteFile(path, []byte(data), 0o644)
		m := loadPMDACacheAt(path, nil)
		shown := map[uint32]bool{}
		for _, line := range strings.Split(data, "\n") {
			if e, _ := readPMDACacheLine(line); e.hasID {
				shown[e.id] = true
			}
		}
		if id := m.ID("fuzz-new-name"); shown[id] {
			t.Fatalf("a new name got id %d, which a line shows", id)
		}
		m.Save()
		written, _ := os.ReadFile(path)
		if got := loadLikeLibpcp(string(written)); got.stopped != "" {
			t.Fatalf("libpcp's rules read %+v from:\n%q", got, written)
		}
	})
}
