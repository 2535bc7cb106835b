package mmvfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// junk makes n entries of the directory by make, each named after i.
func junk(t *testing.T, dir string, n int, name func(i int) string, make func(path string) error) {
	t.Helper()
	for i := 0; i < n; i++ {
		if err := make(filepath.Join(dir, name(i))); err != nil {
			t.Fatal(err)
		}
	}
}

func emptyFile(path string) error { return os.WriteFile(path, nil, 0o644) }

// countProblems counts the problems that contain what.
func countProblems(problems []string, what string) int {
	n := 0
	for _, p := range problems {
		if strings.Contains(p, what) {
			n++
		}
	}
	return n
}

// Thousands of entries of every kind that is no MMV file crowd out none
// of the files: hidden files, FIFOs, directories, links, names that are
// no PMNS names, and empty files in the making. The refusals are told
// by name up to a bound, then in one line, and not again.
func TestMMVJunkEntriesCrowdOutNoFile(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	for i := 1; i <= 3; i++ {
		r.write(fmt.Sprintf("zeta%d", i), singleSpec(0, "n", 1, uint64(i)))
	}
	junk(t, r.dir, 1000, func(i int) string { return fmt.Sprintf(".hidden%d", i) }, emptyFile)
	junk(t, r.dir, 1000, func(i int) string { return fmt.Sprintf("fifo%d", i) }, func(p string) error { return syscall.Mkfifo(p, 0o644) })
	junk(t, r.dir, 1000, func(i int) string { return fmt.Sprintf("dir%d", i) }, func(p string) error { return os.Mkdir(p, 0o755) })
	junk(t, r.dir, 1000, func(i int) string { return fmt.Sprintf("link%d", i) }, func(p string) error { return os.Symlink("zeta1", p) })
	junk(t, r.dir, 900, func(i int) string { return fmt.Sprintf("%dbad-name", i) }, emptyFile)
	junk(t, r.dir, 100, func(i int) string { return fmt.Sprintf("a%03d", i) }, emptyFile)
	_, problems := r.scan()
	want := []string{"hostcache.mmv.zeta1.n", "hostcache.mmv.zeta2.n", "hostcache.mmv.zeta3.n"}
	if got := sorted(r.names()); !slices.Equal(got, want) {
		t.Fatalf("names %q, want %q", got, want)
	}
	named := countProblems(problems, ", ignored")
	unnamed := countProblems(problems, "the others are ignored unnamed")
	if named != mmvNamedRefusals || unnamed != 1 || len(problems) != named+unnamed {
		t.Errorf("%d problems, %d naming an entry, %d of the rest: %q", len(problems), named, unnamed, problems[:min(len(problems), 5)])
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// Files in use stay in use when more files than a scan looks at appear
// that sort before them; a refused file set aside meanwhile is not told
// again when it is looked at again.
func TestMMVFilesInUseStayWhenCrowded(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	for i := 1; i <= 3; i++ {
		r.write(fmt.Sprintf("zeta%d", i), singleSpec(0, "n", 1, uint64(i)))
	}
	if err := os.WriteFile(filepath.Join(r.dir, "notes"), []byte("not an MMV file, but long enough to have a header"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, problems := r.scan(); len(problems) != 1 || !hasProblem(problems, "notes", "not an MMV file") {
		t.Fatalf("problems %q", problems)
	}
	crowd := func(i int) string { return fmt.Sprintf("a%03d", i) }
	junk(t, r.dir, 400, crowd, emptyFile)
	changed, problems := r.scan()
	if changed || len(problems) != 1 || countProblems(problems, "the files in use, and the others in turn") != 1 {
		t.Fatalf("crowded: changed %v, problems %q", changed, problems)
	}
	if r.files.files["notes"].reader != nil {
		t.Error("the refused file is still looked at")
	}
	s := r.publish()
	for i := 1; i <= 3; i++ {
		if v, ok := s.one(fmt.Sprintf("hostcache.mmv.zeta%d.n", i)); !ok || v.Bits != uint64(i) {
			t.Errorf("zeta%d.n = %d, %v", i, v.Bits, ok)
		}
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
	for i := 0; i < 400; i++ {
		r.remove(crowd(i))
	}
	if changed, problems := r.scan(); changed || len(problems) != 0 {
		t.Errorf("uncrowded: changed %v, problems %q", changed, problems)
	}
	if r.files.files["notes"].reader == nil {
		t.Error("the refused file is not looked at again")
	}
}

// A directory of more entries than a scan reads is told once; the files
// in use stay in use, wherever the listing stops.
func TestMMVEntriesLimitIsToldOnce(t *testing.T) {
	lim := defaultMMVLimits()
	lim.entries = 50
	r := newMMVRig(t, lim)
	r.write("app", singleSpec(0, "n", 1, 1))
	r.write("web", singleSpec(0, "n", 1, 2))
	r.scanQuiet()
	junk(t, r.dir, 200, func(i int) string { return fmt.Sprintf(".part%d", i) }, emptyFile)
	changed, problems := r.scan()
	capped := "mmv directory " + r.dir + ": 50 entries looked at, the limit; any others are not, but for the files in use"
	if changed || !slices.Equal(problems, []string{capped}) {
		t.Fatalf("changed %v, problems %q", changed, problems)
	}
	if got := sorted(r.names()); !slices.Equal(got, []string{"hostcache.mmv.app.n", "hostcache.mmv.web.n"}) {
		t.Errorf("names %q", got)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// In a directory of more files than a scan looks at, files that never
// become usable and sort first cannot keep a new file from being looked
// at: the others are taken in turn.
func TestMMVCrowdedDirectoryStillFindsANewFile(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	junk(t, r.dir, 400, func(i int) string { return fmt.Sprintf("a%03d", i) },
		func(p string) error { return os.WriteFile(p, make([]byte, 64), 0o644) }) // zeros: in the making
	r.write("zeta", singleSpec(0, "n", 1, 1))
	for range 3 {
		r.scan()
	}
	if !slices.Contains(r.names(), "hostcache.mmv.zeta.n") {
		t.Errorf("zeta is not served after 3 scans: %d names", len(r.names()))
	}
}

// A file in the making (its header zeros) is not read whole at each
// scan: its header says it is not ready.
func TestMMVFileInTheMakingIsNotReadWhole(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	f, err := os.Create(filepath.Join(r.dir, "making"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(16 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r.scan()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 3 {
		r.scan()
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Errorf("3 scans of a 16 MB file in the making allocated %d bytes", grown)
	}
}
