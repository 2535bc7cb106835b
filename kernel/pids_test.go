package kernel

import (
	"os"
	"slices"
	"strconv"
	"testing"
)

// The lister finds the processes os.ReadDir finds, in a tree made for
// the test: numbered directories among others.
func TestPIDListerReadsNumberedDirectories(t *testing.T) {
	root := t.TempDir()
	want := []int32{1, 42, 2147483647}
	for _, p := range want {
		os.Mkdir(root+"/"+strconv.Itoa(int(p)), 0o755)
	}
	for _, other := range []string{"self", "net", "1x", "2147483648", "007a"} {
		os.Mkdir(root+"/"+other, 0o755)
	}
	l := PIDLister{Root: root}
	got, err := l.List(nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
}

// On the host's /proc, the lister's PIDs are a superset of those present
// both before and after it ran (processes come and go meanwhile).
func TestPIDListerOnProc(t *testing.T) {
	before := readDirPIDs(t)
	l := PIDLister{Root: "/proc"}
	got, err := l.List(nil)
	if err != nil {
		t.Fatal(err)
	}
	after := readDirPIDs(t)
	for _, p := range before {
		if slices.Contains(after, p) && !slices.Contains(got, p) {
			t.Errorf("pid %d is missing", p)
		}
	}
	if !slices.Contains(got, int32(os.Getpid())) {
		t.Error("the test's own pid is missing")
	}
}

func readDirPIDs(t *testing.T) []int32 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int32
	for _, e := range entries {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, int32(n))
		}
	}
	return out
}

func TestPIDListerMissingRoot(t *testing.T) {
	l := PIDLister{Root: t.TempDir() + "/none"}
	if _, err := l.List(nil); err == nil {
		t.Error("a missing root is no error")
	}
}

func BenchmarkPIDLister(b *testing.B) {
	l := PIDLister{Root: "/proc"}
	var pids []int32
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if pids, err = l.List(pids); err != nil {
			b.Fatal(err)
		}
	}
}
