package kernel

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/prometheus/procfs"
)

// Every process of this host, parsed by ParsePidStatus and by procfs
// from the same bytes, agrees on each line both read.
func TestParsePidStatusAgreesWithProcfs(t *testing.T) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	checked := 0
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, "status"))
		if err != nil {
			continue
		}
		var got PidStatus
		if err := ParsePidStatus(data, &got); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		pid, _ := strconv.Atoi(filepath.Base(dir))
		want := procfsStatus(t, pid, data)
		pairs := []struct {
			name string
			a, b uint64
		}{
			{"tgid", got.Tgid, uint64(want.TGID)}, {"vmsize", got.Vm[VmSize], want.VmSize / 1024},
			{"vmrss", got.Vm[VmRSS], want.VmRSS / 1024}, {"vmswap", got.Vm[VmSwap], want.VmSwap / 1024},
			{"vmpte", got.Vm[VmPTE], want.VmPTE / 1024}, {"vmhwm", got.Vm[VmHWM], want.VmHWM / 1024},
			{"uid", got.UID[0], want.UIDs[0]}, {"euid", got.UID[1], want.UIDs[1]},
			{"fsgid", got.GID[3], want.GIDs[3]}, {"voluntary", got.VoluntaryCtxt, want.VoluntaryCtxtSwitches},
			{"nonvoluntary", got.NonvoluntaryCtxt, want.NonVoluntaryCtxtSwitches},
		}
		for _, p := range pairs {
			if p.a != p.b {
				t.Errorf("%s %s: %d, procfs %d", dir, p.name, p.a, p.b)
			}
		}
		checked++
	}
	if checked < 2 {
		t.Fatalf("only %d processes read", checked)
	}
}

// procfsStatus parses data with procfs: a tree holding the one file.
func procfsStatus(t *testing.T, pid int, data []byte) procfs.ProcStatus {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, strconv.Itoa(pid)), 0o755)
	os.WriteFile(filepath.Join(root, strconv.Itoa(pid), "status"), data, 0o644)
	fs, err := procfs.NewFS(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fs.Proc(pid)
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.NewStatus()
	if err != nil {
		t.Fatalf("procfs of pid %d: %v", pid, err)
	}
	return st
}

func TestParsePidStatusKernelThreadAndMasks(t *testing.T) {
	text := "Name:\tkworker/0:1\nTgid:\t12\nPid:\t12\nPPid:\t2\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n" +
		"Threads:\t1\nSigPnd:\t0000000000000001\nShdPnd:\t0000000000000100\nSigBlk:\tfffffffffffffeff\n" +
		"SigIgn:\tffffffffffffffff\nSigCgt:\t0000000000000000\nCpus_allowed_list:\t0\n"
	var s PidStatus
	if err := ParsePidStatus([]byte(text), &s); err != nil {
		t.Fatal(err)
	}
	if s.HasLine(VmRSS) || s.Vm[VmRSS] != 0 {
		t.Error("a kernel thread has a VmRSS")
	}
	if s.SigPending != 0x101 || s.SigBlocked != 0xfffffffffffffeff || s.SigIgnored != 1<<64-1 {
		t.Errorf("masks %x %x %x", s.SigPending, s.SigBlocked, s.SigIgnored)
	}
	if string(s.CpusAllowedList) != "0" || s.PPID != 2 || s.Threads != 1 {
		t.Errorf("got %+v", s)
	}
	if err := ParsePidStatus([]byte("VmRSS:\t12x kB\n"), &s); err == nil {
		t.Error("a bad VmRSS is no error")
	}
	if err := ParsePidStatus([]byte("Uid:\t0\t0\n"), &s); err == nil {
		t.Error("a short Uid line is no error")
	}
}

func BenchmarkParsePidStatus(b *testing.B) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip(err)
	}
	var s PidStatus
	b.ReportAllocs()
	for b.Loop() {
		if err := ParsePidStatus(data, &s); err != nil {
			b.Fatal(err)
		}
	}
}

// The namespace lines keep their text (one id per namespace, tab apart),
// envID is read where OpenVZ prints it, and SigPnd is kept apart from
// the process-wide ShdPnd.
func TestParsePidStatusNamespaces(t *testing.T) {
	tests := []struct {
		name, text string
		ns         [NSLines]string
		envID      uint64
		hasEnvID   bool
		sigPnd     uint64
	}{
		{"host", "NStgid:\t4328\nNSpid:\t4328\nNSpgid:\t4317\nNSsid:\t32616\nSigPnd:\t0000000000000002\n" +
			"ShdPnd:\t0000000000000100\n", [NSLines]string{"4328", "4328", "4317", "32616"}, 0, false, 2},
		{"in a container", "NStgid:\t10203\t1\nNSpid:\t10203\t1\nNSpgid:\t10203\t1\nNSsid:\t10200\t0\n",
			[NSLines]string{"10203\t1", "10203\t1", "10203\t1", "10200\t0"}, 0, false, 0},
		{"OpenVZ", "envID:\t101\nNSpid:\t7\n", [NSLines]string{"", "7", "", ""}, 101, true, 0},
		{"old kernel: no NS lines", "Pid:\t7\n", [NSLines]string{}, 0, false, 0},
	}
	for _, tc := range tests {
		var s PidStatus
		if err := ParsePidStatus([]byte(tc.text), &s); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i := range NSLines {
			if string(s.NS[i]) != tc.ns[i] || (s.NS[i] == nil) != (tc.ns[i] == "") {
				t.Errorf("%s: NS %d = %q, want %q", tc.name, i, s.NS[i], tc.ns[i])
			}
		}
		if s.EnvID != tc.envID || s.HasEnvID() != tc.hasEnvID || s.SigPnd != tc.sigPnd {
			t.Errorf("%s: envID %d %v sigpnd %x", tc.name, s.EnvID, s.HasEnvID(), s.SigPnd)
		}
	}
	var s PidStatus
	if err := ParsePidStatus([]byte("envID:\tx\n"), &s); err == nil {
		t.Error("a bad envID is no error")
	}
}
