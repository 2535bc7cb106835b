package proc

import (
	"os"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// The fixture's processes, named and valued as pmdaproc does: the PID in
// six digits and the command line's first word, "(comm)" for a kernel
// thread; times in ms, sizes in kB.
func TestProcessesFromFixture(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "processes/t0")
	h.MustSample(collectortest.T0)
	want := map[uint32]string{1: "000001 /sbin/init", 2: "000002 (kthreadd)", 100: "000100 -bash",
		300: "000300 sleep"}
	got := h.Instances(indomProcess)
	if len(got) != len(want) {
		t.Fatalf("instances %v, want %v", got, want)
	}
	for _, x := range got {
		if want[x.ID] != x.Name {
			t.Errorf("instance %d is %q, want %q", x.ID, x.Name, want[x.ID])
		}
	}
	h.WantU64("proc.nprocs", 0xffffffff, 4)
	h.WantU64("proc.psinfo.utime", 1, 5000)
	h.WantU64("proc.psinfo.ppid", 100, 1)
	h.WantU64("proc.psinfo.vsize", 1, 39472)
	h.WantU64("proc.psinfo.rss", 1, 2262*uint64(os.Getpagesize())/1024)
	h.WantU64("proc.id.uid", 100, 1000)
	h.WantU64("proc.id.gid", 100, 100)
	h.WantU64("proc.memory.vmrss", 1, 9048)
	h.WantU64("proc.memory.vmreal", 1, 9100)
	h.WantU64("proc.memory.vmnonlib", 1, 9092)
	h.WantU64("proc.io.read_bytes", 100, 4096)
	h.WantAbsent("proc.io.read_bytes", 2)
	h.WantU64("proc.schedstat.pcount", 1, 500)
	h.WantU64("proc.psinfo.policy", 1, 0)
	h.WantU64("proc.runq.kernel", 0xffffffff, 1)
	h.WantU64("proc.runq.sleeping", 0xffffffff, 3)
	for inst, s := range map[uint32]string{1: "/sbin/init splash", 2: "(kthreadd)", 100: "-bash"} {
		if v := h.MustValue("proc.psinfo.psargs", inst); v.Str != s {
			t.Errorf("psargs of %d = %q, want %q", inst, v.Str, s)
		}
	}
	if v := h.MustValue("proc.psinfo.sname", 1); v.Str != "S" {
		t.Errorf("sname %q", v.Str)
	}
	strs := map[string]map[uint32]string{
		"proc.psinfo.policy_s":    {1: "NORMAL"},
		"proc.psinfo.ttyname":     {1: "?", 100: "pts/3"},
		"proc.psinfo.sigignore_s": {1: "0000000000001000"},
		"proc.psinfo.sigcatch_s":  {1: "00000001000004e8"},
		"proc.psinfo.cpusallowed": {1: "0-1"},
	}
	for name, want := range strs {
		for inst, s := range want {
			if v := h.MustValue(name, inst); v.Str != s {
				t.Errorf("%s of %d = %q, want %q", name, inst, v.Str, s)
			}
		}
	}
}

// Two seconds on: init's utime rate is its growth over them; the PID the
// kernel gave a new process is renamed and has no rate across the two
// processes; the exited process is gone, the new one listed.
func TestProcessesRenewAndExit(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "processes/t0")
	h.MustSample(collectortest.T0)
	h.Use("processes/t1")
	h.MustSample(collectortest.T1)
	h.WantFloat("rate.proc.psinfo.utime", 1, 0.05) // 100 ms of CPU in 2 s, in s/s
	if _, ok := h.Value("rate.proc.psinfo.utime", 100); ok {
		t.Error("a rate runs across two processes under PID 100")
	}
	names := map[uint32]string{}
	for _, x := range h.Instances(indomProcess) {
		names[x.ID] = x.Name
	}
	if names[100] != "000100 python3" {
		t.Errorf("PID 100's new process is named %q", names[100])
	}
	if _, ok := names[300]; ok {
		t.Error("the exited process 300 is still listed")
	}
	if names[400] != "000400 cat" {
		t.Errorf("the new process 400 is named %q", names[400])
	}
	if v, ok := h.Value("rate.proc.psinfo.utime", 400); ok {
		// A process first seen in this sample has one sample: no rate yet.
		t.Errorf("new process 400 has a rate %v", v.Double())
	}
}

// A PID typed without the zeros of pmdaproc's names is written as they
// start, as pmdaproc's own lookup does ("pmval -i 1234").
func TestSixDigits(t *testing.T) {
	for name, want := range map[string]string{"1": "000001", "1234": "001234", "12345": "012345"} {
		if got, ok := sixDigits(name); !ok || got != want {
			t.Errorf("sixDigits(%q) = %q %v, want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"", "123456", "1234567", "12a", "sshd"} {
		if got, ok := sixDigits(name); ok {
			t.Errorf("sixDigits(%q) = %q", name, got)
		}
	}
}
