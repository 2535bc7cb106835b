package mmvfiles

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// A file written between scans appears at the next one; a removed one
// goes, its cluster with it.
func TestMMVFilesComeAndGo(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	if r.scanQuiet() || len(r.names()) != 0 {
		t.Fatalf("an empty directory: %q", r.names())
	}
	r.write("one", singleSpec(0, "n", 1, 11))
	if !r.scanQuiet() || !slices.Equal(r.names(), []string{"hostcache.mmv.one.n"}) {
		t.Fatalf("after writing one: %q", r.names())
	}
	r.write("two", singleSpec(0, "n", 1, 22))
	r.scanQuiet()
	s := r.publish()
	if v, _ := s.one("hostcache.mmv.two.n"); v.Bits != 22 {
		t.Errorf("two.n = %d", v.Bits)
	}
	if d, _ := r.desc("hostcache.mmv.two.n"); d.ID.Cluster() != clusterMMVFirst+1 {
		t.Errorf("two is at cluster %d, want the next free, %d", d.ID.Cluster(), clusterMMVFirst+1)
	}
	r.remove("one")
	if !r.scanQuiet() || !slices.Equal(r.names(), []string{"hostcache.mmv.two.n"}) {
		t.Fatalf("after removing one: %q", r.names())
	}
	if r.scanQuiet() {
		t.Error("a scan with nothing new says it changed")
	}
}

// Values change in place between samples: publish reads them anew, and
// the scan sees no change in what the files hold.
func TestMMVValuesChangeInPlace(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	b := r.write("app", singleSpec(0, "n", 1, 1))
	r.scanQuiet()
	b.SetBits(0, 99)
	r.rewrite("app", b)
	if r.scanQuiet() {
		t.Error("a value's change changed the catalog")
	}
	if v, _ := r.publish().one("hostcache.mmv.app.n"); v.Bits != 99 {
		t.Errorf("n = %d, want the rewritten 99", v.Bits)
	}
}

// A writer that restarts replaces its file (a new generation, here with
// another metric): the scan parses the new one.
func TestMMVReplacedFileIsParsedAgain(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("app", singleSpec(3, "old", 1, 1))
	r.scanQuiet()
	s := singleSpec(3, "new", 2, 2)
	s.Gen = 2
	r.write("app", s)
	if !r.scanQuiet() || !slices.Equal(r.names(), []string{"hostcache.mmv.app.new"}) {
		t.Fatalf("after the restart: %q", r.names())
	}
	if d, _ := r.desc("hostcache.mmv.app.new"); d.ID != cache.NewMetricID(clusterMMVFirst+3, 2) {
		t.Errorf("new is %s", d.ID)
	}
	if v, _ := r.publish().one("hostcache.mmv.app.new"); v.Bits != 2 {
		t.Errorf("new = %d", v.Bits)
	}
	s.Gen = 3 // the same layout again, a new file: nothing to tell
	r.write("app", s)
	if r.scanQuiet() {
		t.Error("the same layout in a new file changed the catalog")
	}
}

// A new generation written in place is parsed again too.
func TestMMVNewGenerationInPlace(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("app", singleSpec(0, "old", 1, 1))
	r.scanQuiet()
	s := singleSpec(0, "new", 1, 1)
	s.Gen = 9
	r.rewrite("app", mmvtest.Build(s))
	if !r.scanQuiet() || !slices.Equal(r.names(), []string{"hostcache.mmv.app.new"}) {
		t.Fatalf("after the new generation: %q", r.names())
	}
}

// A file whose generations differ is being written: not used until they
// agree, and no problem.
func TestMMVUnstableFileWaits(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	b := mmvtest.Build(singleSpec(0, "n", 1, 1))
	b.PutU64(mmvtest.HdrGen2, 2)
	r.writeBuilt("app", b)
	if r.scanQuiet() || len(r.names()) != 0 {
		t.Fatalf("a file in flux is used: %q", r.names())
	}
	b.PutU64(mmvtest.HdrGen2, 1)
	r.rewrite("app", b)
	if !r.scanQuiet() || len(r.names()) != 1 {
		t.Fatalf("the finished file: %q", r.names())
	}
}

// deadPID is the pid of a process that ran and was reaped.
func deadPID(t *testing.T) int32 {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	pid := cmd.Process.Pid
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Skipf("pid %d was taken again at once: %v", pid, err)
	}
	return int32(pid)
}

// A file of a process that is gone goes, with one problem; it is not
// parsed again until it changes.
func TestMMVFileOfADeadProcessGoes(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	s := singleSpec(0, "n", 1, 1)
	s.Flags, s.PID = mmvtest.FlagProcess, int32(os.Getpid())
	r.write("live", s)
	s.PID = deadPID(t)
	r.write("dead", s)
	changed, problems := r.scan()
	if !changed || len(problems) != 1 || !hasProblem(problems, "dead", "process") {
		t.Fatalf("changed %v, problems %q", changed, problems)
	}
	if !slices.Equal(r.names(), []string{"hostcache.mmv.live.n"}) {
		t.Errorf("names %q", r.names())
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("the dead file is reported again: %q", problems)
	}
	s.PID, s.Gen = int32(os.Getpid()), 2 // restarted under this process
	r.write("dead", s)
	if !r.scanQuiet() || len(r.names()) != 2 {
		t.Errorf("the restarted file: %q", r.names())
	}
}

// A file whose process goes while it is in use goes at the next scan.
func TestMMVFileInUseLosesItsProcess(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	r := newMMVRig(t, defaultMMVLimits())
	s := singleSpec(0, "n", 1, 1)
	s.Flags, s.PID = mmvtest.FlagProcess, int32(cmd.Process.Pid)
	r.write("app", s)
	r.scanQuiet()
	if len(r.names()) != 1 {
		t.Fatalf("names %q", r.names())
	}
	cmd.Process.Kill()
	cmd.Wait()
	changed, problems := r.scan()
	if !changed || !hasProblem(problems, "app", "is gone") || len(r.names()) != 0 {
		t.Errorf("changed %v, problems %q, names %q", changed, problems, r.names())
	}
}

// Two files asking for one cluster: the first keeps it, the second gets
// another and a problem saying so. A file that goes and comes back while
// the agent runs gets its cluster back.
func TestMMVClustersAreStable(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("a", singleSpec(7, "n", 1, 1))
	r.write("b", singleSpec(7, "n", 1, 2))
	_, problems := r.scan()
	if len(problems) != 1 || !hasProblem(problems, "b", "asks for cluster 7 (775 here), which file a holds; given 768") {
		t.Fatalf("problems %q", problems)
	}
	cluster := func(file string) uint32 {
		d, _ := r.desc("hostcache.mmv." + file + ".n")
		return d.ID.Cluster()
	}
	if cluster("a") != 775 || cluster("b") != 768 {
		t.Fatalf("a at %d, b at %d", cluster("a"), cluster("b"))
	}
	r.remove("a")
	r.scanQuiet()
	r.write("c", singleSpec(0, "n", 1, 3))
	r.scanQuiet()
	if cluster("c") != 769 {
		t.Errorf("c took %d, want 769: the lowest no file held", cluster("c"))
	}
	r.remove("b")
	r.scanQuiet()
	r.write("b", singleSpec(7, "n", 1, 2))
	r.write("a", singleSpec(7, "n", 1, 1))
	r.scanQuiet()
	if cluster("a") != 775 || cluster("b") != 768 {
		t.Errorf("back again, a at %d, b at %d", cluster("a"), cluster("b"))
	}
}

// At the files limit a new file waits, told once, and comes in when a
// file goes.
func TestMMVFilesLimit(t *testing.T) {
	lim := defaultMMVLimits()
	lim.files = 2
	r := newMMVRig(t, lim)
	for _, name := range []string{"a", "b", "c"} {
		r.write(name, singleSpec(0, "n", 1, 1))
	}
	_, problems := r.scan()
	if len(problems) != 1 || !hasProblem(problems, "c", "waits: 2 files of") || len(r.names()) != 2 {
		t.Fatalf("problems %q, names %q", problems, r.names())
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
	r.remove("a")
	r.scanQuiet()
	if got := sorted(r.names()); !slices.Equal(got, []string{"hostcache.mmv.b.n", "hostcache.mmv.c.n"}) {
		t.Errorf("names %q", got)
	}
}

// A FIFO, a symbolic link (even to a good file), a directory and names
// that are no PMNS names are refused once each, costing nothing else.
func TestMMVEntriesThatAreNotFiles(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("good", singleSpec(0, "n", 1, 1))
	if err := syscall.Mkfifo(filepath.Join(r.dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(r.dir, "good"), filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(r.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("bad-name", singleSpec(0, "n", 1, 1))
	r.write("9lives", singleSpec(0, "n", 1, 1))
	r.write(".hidden", singleSpec(0, "n", 1, 1))
	_, problems := r.scan()
	for _, want := range [][2]string{{"fifo", "not a regular file"}, {"link", "not a regular file"}, {"sub", "not a regular file"},
		{"bad-name", "no PMNS name"}, {"9lives", "no PMNS name"}} {
		if !hasProblem(problems, want[0], want[1]) {
			t.Errorf("no problem for %s: %q", want[0], problems)
		}
	}
	if len(problems) != 5 || !slices.Equal(r.names(), []string{"hostcache.mmv.good.n"}) {
		t.Errorf("problems %q, names %q", problems, r.names())
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// A scan looks at no more files than the files limit and a margin, said
// once. Empty files are files being made: no problem.
func TestMMVDirectoryIsReadBounded(t *testing.T) {
	lim := defaultMMVLimits()
	lim.files = 1
	r := newMMVRig(t, lim)
	for i := 0; i < 1+mmvSpareEntries+10; i++ {
		if err := os.WriteFile(filepath.Join(r.dir, "f"+string(rune('a'+i%26))+string(rune('a'+i/26))), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, problems := r.scan()
	said := 0
	for _, p := range problems {
		if p == "mmv directory "+r.dir+": more than 65 files; a scan looks at 65: the files in use, and the others in turn" {
			said++
		}
	}
	if said != 1 || len(problems) != 1 { // empty files are files in the making
		t.Errorf("%d problems: %q", len(problems), problems)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
}

// A directory that does not exist is one problem, and files in it are
// used once it does.
func TestMMVDirectoryMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mmv")
	r := &mmvRig{t: t, dir: dir, files: newMMVFiles(dir, defaultMMVLimits()), step: mmvQuietStep}
	if _, problems := r.scan(); len(problems) != 1 {
		t.Errorf("problems %q", problems)
	}
	if _, problems := r.scan(); len(problems) != 0 {
		t.Errorf("told again: %q", problems)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("app", singleSpec(0, "n", 1, 1))
	if !r.scanQuiet() || len(r.names()) != 1 {
		t.Errorf("names %q", r.names())
	}
}

// The files in use take at most mmvTotalBytes together: a file of a valid
// header and a long (sparse) tail costs its size at every read, so one
// past the budget waits, told once.
func TestMMVFilesByteBudget(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	const size = 15 << 20
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		r.write(name, singleSpec(0, "n", 1, 1))
		if err := os.Truncate(filepath.Join(r.dir, name), size); err != nil {
			t.Fatal(err)
		}
	}
	_, problems := r.scan()
	if len(r.names()) != 4 || len(problems) != 1 || !hasProblem(problems, "e", "waits: 4 files of") {
		t.Fatalf("problems %q, names %q", problems, r.names())
	}
}
