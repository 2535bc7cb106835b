package kernel

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/prometheus/procfs"
)

// Every process of this host, parsed by ParsePidStat and by procfs from
// the same bytes, agrees on each field both read.
func TestParsePidStatAgreesWithProcfs(t *testing.T) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	checked := 0
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue // the process has gone
		}
		var got PidStat
		if err := ParsePidStat(data, &got); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		want := procfsStat(t, dir, pid, data)
		comparePidStat(t, dir, &got, want)
		checked++
	}
	if checked < 2 {
		t.Fatalf("only %d processes read", checked)
	}
}

// procfsStat parses data with procfs: a tree holding the one file.
func procfsStat(t *testing.T, dir string, pid int, data []byte) procfs.ProcStat {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, strconv.Itoa(pid)), 0o755)
	os.WriteFile(filepath.Join(root, strconv.Itoa(pid), "stat"), data, 0o644)
	os.WriteFile(filepath.Join(root, "stat"), []byte("btime 0\n"), 0o644)
	fs, err := procfs.NewFS(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fs.Proc(pid)
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Stat()
	if err != nil {
		t.Fatalf("procfs of %s: %v", dir, err)
	}
	return st
}

func comparePidStat(t *testing.T, dir string, got *PidStat, want procfs.ProcStat) {
	t.Helper()
	pairs := []struct {
		name string
		a, b int64
	}{
		{"pid", got.PID, int64(want.PID)}, {"ppid", got.PPID, int64(want.PPID)},
		{"pgrp", got.PGrp, int64(want.PGRP)}, {"session", got.Session, int64(want.Session)},
		{"tty", got.TTY, int64(want.TTY)}, {"tpgid", got.TPGid, int64(want.TPGID)},
		{"flags", int64(got.Flags), int64(want.Flags)}, {"minflt", int64(got.MinFlt), int64(want.MinFlt)},
		{"majflt", int64(got.MajFlt), int64(want.MajFlt)}, {"utime", int64(got.UTime), int64(want.UTime)},
		{"stime", int64(got.STime), int64(want.STime)}, {"cutime", got.CUTime, int64(want.CUTime)},
		{"priority", got.Priority, int64(want.Priority)}, {"nice", got.Nice, int64(want.Nice)},
		{"threads", got.Threads, int64(want.NumThreads)}, {"start", int64(got.StartTime), int64(want.Starttime)},
		{"vsize", int64(got.VSize), int64(want.VSize)}, {"rss", got.RSS, int64(want.RSS)},
		{"processor", int64(got.Rest[PidStatProcessor]), int64(want.Processor)},
		{"policy", int64(got.Rest[PidStatPolicy]), int64(want.Policy)},
		{"blkio", int64(got.Rest[PidStatBlkioTicks]), int64(want.DelayAcctBlkIOTicks)},
	}
	for _, p := range pairs {
		if p.a != p.b {
			t.Errorf("%s %s: %d, procfs %d", dir, p.name, p.a, p.b)
		}
	}
	if string(got.Comm) != want.Comm || string(got.State) != want.State {
		t.Errorf("%s: comm %q state %c, procfs %q %q", dir, got.Comm, got.State, want.Comm, want.State)
	}
}

func TestParsePidStatOddComm(t *testing.T) {
	line := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 10 0 2 0 7 3 0 0 20 0 1 0 99 12345 67 " +
		"18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 5 0 0\n"
	var st PidStat
	if err := ParsePidStat([]byte(line), &st); err != nil {
		t.Fatal(err)
	}
	if string(st.Comm) != "a (b) c" || st.State != 'S' || st.PPID != 1 || st.TTY != 0 || st.TPGid != -1 {
		t.Errorf("got %+v", st)
	}
	if st.UTime != 7 || st.STime != 3 || st.StartTime != 99 || st.RSS != 67 || st.RSSLim != 1<<64-1 {
		t.Errorf("times and sizes: %+v", st)
	}
	// A kernel of the 2.6 era stops at field 44: what it has is read.
	if st.RestN != 19 || st.Rest[PidStatBlkioTicks] != 5 || st.Rest[PidStatProcessor] != 1 {
		t.Errorf("the fields after rsslim: %d %v", st.RestN, st.Rest)
	}
}

// A thread other than its group's leader has exit_signal -1 (a task
// directory's stat); it is read as strtoul reads it, not refused.
func TestParsePidStatThreadExitSignal(t *testing.T) {
	line := "59 (vsock-console) S 0 0 0 0 -1 4194624 2233 0 0 0 29 77 0 0 20 0 14 0 37 43089920 2743 " +
		"18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 -1 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	var st PidStat
	if err := ParsePidStat([]byte(line), &st); err != nil {
		t.Fatal(err)
	}
	if int32(st.Rest[PidStatExitSignal]) != -1 || st.Rest[PidStatProcessor] != 1 {
		t.Errorf("exit_signal %d, processor %d", int64(st.Rest[PidStatExitSignal]), st.Rest[PidStatProcessor])
	}
}

func TestParsePidStatRefusesBadText(t *testing.T) {
	for _, bad := range []string{
		"", "4242 comm S 1", "x (c) S 1 1 1 0 -1", "1 (c) SS 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 1 1 1 1",
		"1 (c) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 1 1", // ends before rsslim
		"1 (c) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 0 0 1 0 1 1 1 1 x",
	} {
		var st PidStat
		if err := ParsePidStat([]byte(bad), &st); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func BenchmarkParsePidStat(b *testing.B) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		b.Skip(err)
	}
	var st PidStat
	b.ReportAllocs()
	for b.Loop() {
		if err := ParsePidStat(data, &st); err != nil {
			b.Fatal(err)
		}
	}
}
