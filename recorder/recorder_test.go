package recorder

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

var (
	tCount = cache.Desc{Name: "hostcache.test.count", ID: cache.NewMetricID(1, 0), Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}
	tBytes = cache.Desc{Name: "hostcache.test.bytes", ID: cache.NewMetricID(1, 1), Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: 1}
	tLevel = cache.Desc{Name: "hostcache.test.level", ID: cache.NewMetricID(1, 2), Type: cache.TypeDouble, Sem: cache.SemInstant, InDom: cache.InDomNone}
	tName  = cache.Desc{Name: "hostcache.test.name", ID: cache.NewMetricID(1, 3), Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}
)

// changing is a collector whose instance "b" appears at its 8th sample
// and whose counter is reset at its 12th.
type changing struct{ n int }

func (c *changing) Name() string { return "test" }

func (c *changing) Source() cache.Source {
	return cache.Source{Name: "test", Metrics: []cache.Desc{tCount, tBytes, tLevel, tName},
		InDoms: []cache.InDomDesc{{ID: 1, Name: "things", NameLabel: "thing"}}}
}

func (c *changing) Sample(b *cache.Builder, _ time.Time) error {
	c.n++
	insts := []cache.Instance{{ID: 0, Name: "a"}}
	if c.n >= 8 {
		insts = append(insts, cache.Instance{ID: 1, Name: "b", Labels: []cache.Label{cache.StringLabel("kind", "new")}})
	}
	b.SetInDom(1, cache.NewInstances(insts))
	count := uint64(1000 * c.n)
	if c.n >= 12 {
		count = uint64(c.n - 12)
	}
	b.SetU64(tCount.ID, cache.InstNone, count)
	for _, x := range insts {
		b.SetU64(tBytes.ID, x.ID, uint64(c.n)*4096*uint64(x.ID+1))
	}
	b.SetDouble(tLevel.ID, cache.InstNone, float64(c.n)/2)
	b.SetString(tName.ID, cache.InstNone, "hullo")
	return nil
}

type texts struct{}

func (texts) MetricText(name string, long bool) (string, bool) {
	if long {
		return "Long help of " + name + ".", true
	}
	return "help of " + name, true
}
func (texts) InDomText(cache.InDomID, bool) (string, bool) { return "things", true }

// attached is a runner of cs at a second's interval, attached to a front
// of their schema, which it returns too.
func attached(t *testing.T, cs ...engine.Collector) (*engine.Runner, *cache.Schema) {
	t.Helper()
	r := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Attach(cache.NewFront(schema)); err != nil {
		t.Fatal(err)
	}
	return r, schema
}

// sampled runs a runner over the changing collector: 10 samples a second
// apart, then 10 two seconds apart. It returns the runner, its schema and
// the last sample's time.
func sampled(t *testing.T, more ...engine.Collector) (*engine.Runner, *cache.Schema, time.Time) {
	t.Helper()
	r, schema := attached(t, append([]engine.Collector{&changing{}}, more...)...)
	at := time.Unix(1_790_000_000, 500_000_000)
	for i := 0; i < 20; i++ {
		if i > 0 {
			step := time.Second
			if i > 10 {
				step = 2 * time.Second
			}
			at = at.Add(step)
		}
		if err := r.SampleAt(at); err != nil {
			t.Fatal(err)
		}
	}
	return r, schema, at
}

func newTestRecorder(t *testing.T, dir string, more ...engine.Collector) (*Recorder, time.Time) {
	r, schema, last := sampled(t, more...)
	return New(Config{Dir: dir, Host: "testhost", Domain: 396, Schema: schema, Texts: texts{},
		History: r.History, Context: []cache.Label{cache.StringLabel("hostname", "testhost")},
		UID: -1, GID: -1, Log: zerolog.Nop(), Now: func() time.Time { return last }}), last
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.SkipOutsideCI(t, tool+" is not installed: PCP's tools check the archives")
		}
	}
}

// The archive holds every sample at its own time, the instance that
// appeared from the sample it appeared in, the reset, the interval change,
// the rates over each step (none over the reset), labels and help; PCP's
// tools read it.
func TestRecordedArchive(t *testing.T) {
	need(t, "pmlogcheck", "pmdumplog", "pmval")
	dir := t.TempDir()
	rec, _ := newTestRecorder(t, dir)
	if err := rec.Start(time.Hour, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Archives != 1 || st.Errors != 0 || st.Records != 20 || st.Busy || st.LastError != "" {
		t.Fatalf("status %+v", st)
	}
	if out, err := exec.Command("pmlogcheck", "-v", st.Last).CombinedOutput(); err != nil {
		t.Errorf("pmlogcheck: %v\n%s", err, out)
	}
	out, err := exec.Command("pmdumplog", "-a", "-e", "-h", "-z", st.Last).CombinedOutput()
	if err != nil {
		t.Fatalf("pmdumplog: %v\n%s", err, out)
	}
	dump := string(out)
	for _, want := range []string{
		"PMID: 396.1.0 (hostcache.test.count)", "(hostcache.rate.test.count)", `1 or "b"`,
		`{"collector":"test"}`, `{"agent":"hostcache"}`, `{"hostname":"testhost"}`, `{"kind":"new","thing":"b"}`,
		"help of hostcache.rate.test.count", `value "hullo"`, "14:13:27.500000 2 instances",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("pmdumplog -aeh lacks %q", want)
		}
	}
	if n := strings.Count(dump, "(hostcache.test.level)"); n < 20 {
		t.Errorf("hostcache.test.level logged %d times, want every one of 20 samples", n)
	}
	// A rate over every step but the one with the reset and the first.
	if n := strings.Count(dump, "(hostcache.rate.test.count): value"); n != 18 {
		t.Errorf("%d rates of hostcache.test.count, want 18", n)
	}
	vals, err := exec.Command("pmval", "-z", "-f", "1", "-a", st.Last, "hostcache.rate.test.count").CombinedOutput()
	if err != nil || !strings.Contains(string(vals), "1000.0") || !strings.Contains(string(vals), "0.5") {
		t.Errorf("pmval of the rate (1000/s, then 1 per 2 s): %v\n%s", err, vals)
	}
	if t.Failed() {
		t.Log(dump)
	}
}

// silent is a source whose metric has no value on this host, as nfs's
// where no NFS is mounted.
type silent struct{}

var tAbsent = cache.Desc{Name: "hostcache.test.absent", ID: cache.NewMetricID(2, 0), Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}

func (silent) Name() string { return "silent" }
func (silent) Source() cache.Source {
	return cache.Source{Name: "silent", Metrics: []cache.Desc{tAbsent}}
}
func (silent) Sample(*cache.Builder, time.Time) error { return nil }

// A sample with no value at all is not written: an empty record is a
// <mark>, which tells every replaying client that the whole archive has a
// gap there, and pmval then interpolates nothing across it.
func TestSilentSourceWritesNoMark(t *testing.T) {
	need(t, "pmdumplog", "pmval")
	rec, _ := newTestRecorder(t, t.TempDir(), silent{})
	if err := rec.Start(time.Hour, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Errors != 0 || st.Records != 20 {
		t.Fatalf("status %+v, want the changing source's 20 records only", st)
	}
	out, err := exec.Command("pmdumplog", "-z", st.Last).CombinedOutput()
	if err != nil || strings.Contains(string(out), "<mark>") {
		t.Fatalf("pmdumplog: %v\n%s", err, out)
	}
	vals, err := exec.Command("pmval", "-z", "-f", "1", "-t", "0.7", "-a", st.Last, "hostcache.test.level").CombinedOutput()
	if err != nil || strings.Count(string(vals), "No values") > 1 {
		t.Errorf("pmval at 0.7 s: %v\n%s", err, vals)
	}
}

// A second request while one is being written is refused with ErrBusy
// and changes nothing; the one written is announced to Writing before and
// after.
func TestOneArchiveAtATime(t *testing.T) {
	release := make(chan struct{})
	r, schema, last := sampled(t)
	var told []bool // what Writing heard, in order
	rec := New(Config{Dir: t.TempDir(), Domain: 396, Schema: schema, Texts: texts{}, UID: -1, Log: zerolog.Nop(),
		Now: func() time.Time { return last },
		History: func(since time.Time) []engine.SourceHistory {
			<-release
			return r.History(since)
		},
		Writing: func(on bool) { told = append(told, on) }})
	go func() { time.Sleep(50 * time.Millisecond); close(release) }()
	if err := rec.Start(time.Minute, root); err != nil {
		t.Fatal(err)
	}
	// Start has taken the history: the write is under way or done.
	rec.busy.Store(true) // hold the recorder busy as a long write would
	if err := rec.Start(time.Minute, root); !errors.Is(err, cache.ErrBusy) {
		t.Errorf("a second request: %v, want ErrBusy", err)
	}
	rec.busy.Store(false)
	rec.Wait()
	if st := rec.Status(); st.Archives != 1 {
		t.Errorf("status %+v", st)
	}
	if !slices.Equal(told, []bool{true, false}) {
		t.Errorf("Writing was told %v around one archive, want [true false]", told)
	}
}

// A directory that cannot be made counts an error, says why and leaves
// nothing behind.
func TestUnwritableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o644)
	rec, _ := newTestRecorder(t, filepath.Join(file, "archives"))
	if err := rec.Start(time.Minute, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Errors != 1 || st.Archives != 0 || !strings.Contains(st.LastError, "not a directory") {
		t.Errorf("status %+v", st)
	}
}

// A span without samples writes no archive.
func TestNothingToRecord(t *testing.T) {
	dir := t.TempDir()
	r, schema, last := sampled(t)
	rec := New(Config{Dir: dir, Domain: 396, Schema: schema, Texts: texts{}, History: r.History, UID: -1,
		Log: zerolog.Nop(), Now: func() time.Time { return last.Add(time.Hour) }})
	rec.Start(time.Second, root)
	rec.Wait()
	if st := rec.Status(); st.Errors != 1 || st.LastError == "" {
		t.Errorf("status %+v", st)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A disk that fills up while the archive is written counts an error and
// leaves no file: a 4 KB tmpfs, smaller than the 6 KB archive, stands for
// the full disk (root only).
func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	rec, _ := newTestRecorder(t, dir)
	rec.Start(time.Hour, root)
	rec.Wait()
	st := rec.Status()
	if st.Errors != 1 || st.Archives != 0 || !strings.Contains(st.LastError, "no space") {
		t.Errorf("status %+v", st)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left on the full disk: %v (status %+v)", left, st)
	}
}

// borrower is a source over the changing source's instance domain with no
// table of its own, as the process groups read the proc collector's
// PIDs. Listed first, its samples come before the changing source's at
// the same time; it also has a value for an instance never described.
type borrower struct{}

var tBorrowed = cache.Desc{Name: "hostcache.test.borrowed", ID: cache.NewMetricID(3, 0), Type: cache.TypeU64,
	Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: 1}

func (borrower) Name() string { return "borrower" }
func (borrower) Source() cache.Source {
	return cache.Source{Name: "borrower", Metrics: []cache.Desc{tBorrowed}}
}
func (borrower) Sample(b *cache.Builder, _ time.Time) error {
	b.SetU64(tBorrowed.ID, 0, 7)
	b.SetU64(tBorrowed.ID, 9, 9)
	return nil
}

// A source that borrows another's instances has its values written after
// a table of them, and none for an instance the archive never names:
// PCP's clients would print "???" for it, and pmseries refuses such a
// record.
func TestBorrowedInstancesAreDescribed(t *testing.T) {
	need(t, "pmdumplog", "pmlogcheck")
	r, schema := attached(t, borrower{}, &changing{})
	at := time.Unix(1_790_000_000, 500_000_000)
	for i := 0; i < 3; i++ {
		if err := r.SampleAt(at.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	last := at.Add(2 * time.Second)
	rec := New(Config{Dir: t.TempDir(), Host: "testhost", Domain: 396, Schema: schema, Texts: texts{},
		History: r.History, UID: -1, GID: -1, Log: zerolog.Nop(), Now: func() time.Time { return last }})
	if err := rec.Start(time.Hour, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Errors != 0 || st.Last == "" {
		t.Fatalf("status %+v", st)
	}
	out, err := exec.Command("pmdumplog", "-z", st.Last, "hostcache.test.borrowed").CombinedOutput()
	dump := string(out)
	if err != nil || strings.Count(dump, `inst [0 or "a"] value 7`) != 3 || strings.Contains(dump, "???") ||
		strings.Contains(dump, "inst [9") {
		t.Errorf("pmdumplog: %v, want three values of instance a and none of 9:\n%s", err, dump)
	}
	if out, err := exec.Command("pmlogcheck", st.Last).CombinedOutput(); err != nil {
		t.Errorf("pmlogcheck: %v\n%s", err, out)
	}
}

// threadsViewer publishes a threads view of the changing source's bytes,
// as proc_threads does of the process metrics.
type threadsViewer struct{}

var tBytesThreads = cache.Desc{Name: "hostcache.test.threads.bytes", ID: cache.NewMetricID(4, 0), Type: cache.TypeU64,
	Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: 1, Threads: true, ThreadsOf: tBytes.ID}

func (threadsViewer) Name() string { return "viewer" }
func (threadsViewer) Source() cache.Source {
	return cache.Source{Name: "viewer", Metrics: []cache.Desc{tBytesThreads}}
}
func (threadsViewer) Sample(b *cache.Builder, _ time.Time) error {
	b.SetU64(tBytesThreads.ID, 0, 1)
	return nil
}

// A threads view has no name a client can look up: a recording holds the
// process metrics only, never their threads' view.
func TestRecordingLeavesThreadsViewsOut(t *testing.T) {
	need(t, "pmdumplog")
	rec, _ := newTestRecorder(t, t.TempDir(), threadsViewer{})
	if err := rec.Start(time.Hour, root); err != nil {
		t.Fatal(err)
	}
	rec.Wait()
	st := rec.Status()
	if st.Errors != 0 || st.Last == "" {
		t.Fatalf("status %+v", st)
	}
	out, err := exec.Command("pmdumplog", "-a", st.Last).CombinedOutput()
	if err != nil || strings.Contains(string(out), "threads") || !strings.Contains(string(out), "hostcache.test.bytes") {
		t.Errorf("pmdumplog -a: %v, want hostcache.test.bytes and no threads view:\n%s", err, out)
	}
}
