package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
)

const statText = `cpu  10132153 290696 3084719 46828483 16683 0 25195 0 175628 0
cpu0 1393280 32966 572056 13343292 6130 0 17875 0 23933 0
cpu1 1335310 30812 504180 13321416 2870 0 3306 0 47052 0
intr 195186521 15 0 0 0 0 0
ctxt 427000
btime 1795320000
processes 26442
procs_running 3
procs_blocked 1
softirq 8 1 2 3 4 5 6 7 8 9 10
`

func TestParseStat(t *testing.T) {
	var s StatSample
	if err := ParseStat([]byte(statText), &s); err != nil {
		t.Fatal(err)
	}
	want := CPUTicks{User: 10132153, Nice: 290696, System: 3084719, Idle: 46828483, Iowait: 16683,
		SoftIRQ: 25195, Guest: 175628}
	if s.Total != want || len(s.CPUs) != 2 || s.CPUs[1].ID != 1 || s.CPUs[1].Ticks.Guest != 47052 {
		t.Errorf("parsed %+v", s)
	}
	if s.Ctxt != 427000 || s.Intr != 195186521 || s.BootTime != 1795320000 || s.Processes != 26442 ||
		s.Running != 3 || s.Blocked != 1 {
		t.Errorf("counters %+v", s)
	}
	// An older kernel's four columns: the rest read 0. A future column is
	// ignored.
	old := "cpu 1 2 3 4\ncpu0 1 2 3 4 5 6 7 8 9 10 11\n"
	if err := ParseStat([]byte(old), &s); err != nil || s.Total != (CPUTicks{1, 2, 3, 4, 0, 0, 0, 0, 0, 0}) ||
		s.CPUs[0].Ticks.GuestNice != 10 {
		t.Errorf("short and long lines: %+v %v", s, err)
	}
	for _, bad := range []string{"", "intr 5\n", "cpu 1 2 3\n", "cpu 1 2 x 4\n", "cpu 1 2 3 4\ncpuX 1 2 3 4\n"} {
		if err := ParseStat([]byte(bad), &s); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// ParseStat agrees with procfs on every stat file we have (fixtures and
// this machine's): procfs gives seconds, ticks / USER_HZ.
func TestParseStatMatchesProcfs(t *testing.T) {
	dir := t.TempDir()
	for _, text := range fileTexts(t, "stat") {
		checkStatLikeProcfs(t, dir, []byte(text))
	}
}

func FuzzParseStatMatchesProcfs(f *testing.F) {
	f.Add([]byte(statText))
	f.Add([]byte("cpu 1 2 3 4\ncpu7 1 2 3 4 5\nctxt 9\n"))
	f.Add([]byte("cpu  0 0 0 0 0 0 0 0 0 0 0 0\nprocesses x\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text []byte) {
		checkStatLikeProcfs(t, dir, text)
	})
}

// checkStatLikeProcfs parses text with both parsers. Where both accept it,
// every CPU time and counter must agree; ParseStat may refuse what procfs
// accepts only for a reason it documents (no cpu line, a cpu line of under
// four numbers), and must never panic.
func checkStatLikeProcfs(t *testing.T, dir string, text []byte) {
	t.Helper()
	var s StatSample
	ours := ParseStat(text, &s)
	if err := os.WriteFile(filepath.Join(dir, "stat"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	fs, err := procfs.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	theirs, perr := fs.Stat()
	if ours != nil || perr != nil {
		return // refusals differ by design: procfs skips what it cannot read
	}
	if !sameTicks(s.Total, theirs.CPUTotal) {
		t.Errorf("total %+v, procfs %+v", s.Total, theirs.CPUTotal)
	}
	if len(s.CPUs) != len(theirs.CPU) && !hasRepeatedCPU(s.CPUs) {
		t.Errorf("%d cpus, procfs %d", len(s.CPUs), len(theirs.CPU))
	}
	for _, c := range s.CPUs {
		if p, ok := theirs.CPU[c.ID]; ok && !sameTicks(c.Ticks, p) && !hasRepeatedCPU(s.CPUs) {
			t.Errorf("cpu%d %+v, procfs %+v", c.ID, c.Ticks, p)
		}
	}
	if strings.Contains(string(text), "\nctxt ") && s.HasCtxt && s.Ctxt != theirs.ContextSwitches {
		t.Errorf("ctxt %d, procfs %d", s.Ctxt, theirs.ContextSwitches)
	}
}

func sameTicks(a CPUTicks, p procfs.CPUStat) bool {
	sec := func(v uint64) float64 { return float64(v) / UserHZ }
	return sec(a.User) == p.User && sec(a.Nice) == p.Nice && sec(a.System) == p.System &&
		sec(a.Idle) == p.Idle && sec(a.Iowait) == p.Iowait && sec(a.IRQ) == p.IRQ &&
		sec(a.SoftIRQ) == p.SoftIRQ && sec(a.Steal) == p.Steal && sec(a.Guest) == p.Guest &&
		sec(a.GuestNice) == p.GuestNice
}

func hasRepeatedCPU(cpus []CPUStat) bool {
	seen := map[int64]bool{}
	for _, c := range cpus {
		if seen[c.ID] {
			return true
		}
		seen[c.ID] = true
	}
	return false
}
