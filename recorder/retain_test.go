package recorder

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

var root = cache.Credentials{UID: 0, GID: 0, Known: true}

// fakeArchive writes an archive's three files of size bytes each under
// the name the recorder would give it.
func fakeArchive(t *testing.T, dir, base string, size int) {
	t.Helper()
	for _, ext := range []string{".meta", ".index", ".0"} {
		if err := os.WriteFile(filepath.Join(dir, base+ext), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func self() uint32 { return uint32(os.Geteuid()) }

// The oldest archives go first, by the time and suffix in their names,
// all three files of each, until the rest fit; the newest stays.
func TestRetainRemovesOldestFirst(t *testing.T) {
	dir := t.TempDir()
	for _, base := range []string{"hostcache-20261127.10.00.02", "hostcache-20261127.10.00.01-10",
		"hostcache-20261127.10.00.01-2", "hostcache-20261127.10.00.01", "hostcache-20261126.23.59.59"} {
		fakeArchive(t, dir, base, 100)
	}
	newest := filepath.Join(dir, "hostcache-20261127.10.00.02")
	total, removed, err := retain(dir, self(), newest, 650)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hostcache-20261126.23.59.59", "hostcache-20261127.10.00.01", "hostcache-20261127.10.00.01-2"}
	var got []string
	for _, r := range removed {
		got = append(got, filepath.Base(r))
	}
	if !slices.Equal(got, want) || total != 600 {
		t.Errorf("removed %v leaving %d bytes, want %v leaving 600", got, total, want)
	}
	left := names(t, dir)
	if len(left) != 6 || !slices.Contains(left, "hostcache-20261127.10.00.01-10.meta") {
		t.Errorf("left %v", left)
	}
	// Nothing to do when everything fits.
	if _, removed, _ := retain(dir, self(), newest, 600); len(removed) != 0 {
		t.Errorf("removed %v though the archives fit", removed)
	}
}

// The newest archive is never removed, even when it alone is all the room.
func TestRetainKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	fakeArchive(t, dir, "hostcache-20261127.10.00.01", 100)
	fakeArchive(t, dir, "hostcache-20261127.10.00.02", 100)
	total, _, err := retain(dir, self(), filepath.Join(dir, "hostcache-20261127.10.00.02"), 300)
	if err != nil || total != 300 {
		t.Fatalf("total %d, %v", total, err)
	}
	if left := names(t, dir); len(left) != 3 || !strings.HasPrefix(left[0], "hostcache-20261127.10.00.02") {
		t.Errorf("left %v", left)
	}
}

// Files that are not the recorder's stay, however old and large: other
// names (pmlogger's archives), a symlink with our name, a directory with
// our name, a hard-linked file, and a file with our name that another
// user owns (root only: making it needs chown).
func TestRetainLeavesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "precious")
	os.WriteFile(outside, make([]byte, 1000), 0o644)
	fakeArchive(t, dir, "20261101.00.00", 1000)                    // pmlogger's
	fakeArchive(t, dir, "hostcache-20261101.00.00.00.extra", 1000) // not our pattern
	os.Symlink(outside, filepath.Join(dir, "hostcache-20261101.00.00.01.meta"))
	os.Mkdir(filepath.Join(dir, "hostcache-20261101.00.00.02.0"), 0o755)
	os.Link(outside, filepath.Join(dir, "hostcache-20261101.00.00.03.0"))
	foreign := os.Geteuid() == 0
	if foreign {
		fakeArchive(t, dir, "hostcache-20261101.00.00.04", 1000)
		for _, ext := range []string{".meta", ".index", ".0"} {
			if err := os.Chown(filepath.Join(dir, "hostcache-20261101.00.00.04"+ext), 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}
	}
	fakeArchive(t, dir, "hostcache-20261127.10.00.00", 10)
	before := names(t, dir)
	total, removed, err := retain(dir, self(), filepath.Join(dir, "hostcache-20261127.10.00.00"), 1)
	if err != nil || len(removed) != 0 || total != 30 {
		t.Errorf("removed %v, counted %d bytes (%v): only our 30 bytes count", removed, total, err)
	}
	if after := names(t, dir); !slices.Equal(before, after) {
		t.Errorf("before %v\nafter %v", before, after)
	}
	if data, err := os.ReadFile(outside); err != nil || len(data) != 1000 {
		t.Errorf("the symlink's target: %v", err)
	}
	if !foreign {
		t.Log("not root: the file of another owner was not tried")
	}
}

// A request writes its archive, then the oldest of the earlier ones go so
// that the directory holds at most MaxBytes of the recorder's archives.
func TestRecorderStaysWithinItsBound(t *testing.T) {
	dir := t.TempDir()
	fakeArchive(t, dir, "hostcache-20200101.00.00.00", 2000)
	fakeArchive(t, dir, "hostcache-20200101.00.00.01", 2000)
	fakeArchive(t, dir, "20200101.00.00", 5000) // pmlogger's, never counted
	rec, _ := newTestRecorder(t, dir)
	rec.cfg.MaxBytes = 16000 // room for the new archive and one of the old (6000 bytes each)
	if err := rec.Start(time.Hour, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Archives != 1 || st.Bytes+6000 > 16000 || st.Bytes+12000 <= 16000 {
		t.Fatalf("status %+v: the test wants an archive of 4001 to 10000 bytes", st)
	}
	left := names(t, dir)
	if slices.Contains(left, "hostcache-20200101.00.00.00.meta") || !slices.Contains(left, "hostcache-20200101.00.00.01.meta") ||
		!slices.Contains(left, "20200101.00.00.meta") || !slices.Contains(left, filepath.Base(st.Last)+".meta") {
		t.Errorf("left %v after an archive of %d bytes", left, st.Bytes)
	}
}

// An archive that alone would take more than the bound is abandoned as
// soon as it passes it: nothing is kept and nothing else removed.
func TestArchiveLargerThanTheBound(t *testing.T) {
	dir := t.TempDir()
	fakeArchive(t, dir, "hostcache-20200101.00.00.00", 10)
	rec, _ := newTestRecorder(t, dir)
	rec.cfg.MaxBytes = 2000
	rec.Start(time.Hour, root)
	rec.Wait()
	st := rec.Status()
	if st.Errors != 1 || st.Archives != 0 || !strings.Contains(st.LastError, "record_max_mb") {
		t.Errorf("status %+v", st)
	}
	if left := names(t, dir); len(left) != 3 {
		t.Errorf("left %v, want the old archive alone", left)
	}
}

// One user asks at most once per MinGap: a second request inside it is
// refused with ErrBusy and writes nothing; another user is not held up;
// past the gap the first may ask again. A request refused because the
// recorder was busy does not start a gap.
func TestOneRequestPerUserPerGap(t *testing.T) {
	dir := t.TempDir()
	r, schema, last := sampled(t)
	now := last
	rec := New(Config{Dir: dir, Domain: 396, Schema: schema, Texts: texts{}, History: r.History, UID: -1,
		Log: zerolog.Nop(), Now: func() time.Time { return now }, MinGap: time.Minute})
	pcp := cache.Credentials{UID: 998, GID: 998, Known: true}
	rec.busy.Store(true)
	if err := rec.Start(time.Hour, pcp); !errors.Is(err, cache.ErrBusy) {
		t.Fatalf("busy: %v", err)
	}
	rec.busy.Store(false)
	steps := []struct {
		after time.Duration
		who   cache.Credentials
		ok    bool
	}{
		{0, root, true},
		{time.Second, root, false},
		{0, pcp, true}, // not held up by root's gap, nor by its own refusal while busy
		{58 * time.Second, root, false},
		{time.Second, root, true},
		{0, cache.Credentials{UID: 0, GID: 5, Known: true}, false}, // the same user with another group
	}
	archives := uint64(0)
	for i, s := range steps {
		now = now.Add(s.after)
		err := rec.Start(time.Hour, s.who)
		rec.Wait()
		if s.ok {
			archives++
		}
		if (err == nil) != s.ok || (err != nil && !errors.Is(err, cache.ErrBusy)) {
			t.Errorf("step %d (uid %d): %v, want ok=%v", i, s.who.UID, err, s.ok)
		}
		if st := rec.Status(); st.Archives != archives {
			t.Errorf("step %d: %d archives, want %d", i, st.Archives, archives)
		}
	}
}

// The table of requests stays bounded whatever the number of users.
func TestRequestGapsBounded(t *testing.T) {
	var g requestGaps
	now := time.Unix(1_790_000_000, 0)
	for uid := uint32(0); uid < 3*maxGapUsers; uid++ {
		g.started(cache.Credentials{UID: uid, Known: true}, now, time.Hour)
		now = now.Add(time.Second)
	}
	if len(g.last) > maxGapUsers {
		t.Errorf("%d users remembered, bound %d", len(g.last), maxGapUsers)
	}
	newest := cache.Credentials{UID: 3*maxGapUsers - 1, Known: true}
	if g.wait(newest, now, time.Hour) == 0 {
		t.Error("the newest request was forgotten")
	}
	if w := g.wait(cache.Credentials{UID: 0, Known: true}, now, time.Hour); w != 0 {
		t.Errorf("the oldest request is still remembered (%v to wait)", w)
	}
}
