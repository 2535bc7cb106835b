package collector

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// limitsHarness runs the limits collector with answers of our choosing.
func limitsHarness(t *testing.T, l kernel.IPCLimits) *harness {
	t.Helper()
	h := newHarness(t, NewIPCLimitsCollector, "proc-t0")
	h.C.(*ipcLimitsCollector).read = func() kernel.IPCLimits { return l }
	return h
}

// The answers of this development host's kernel (6.18, defaults).
var hostLimits = kernel.IPCLimits{
	Sem: kernel.SemInfo{Map: 1024000000, Mni: 32000, Mns: 1024000000, Mnu: 1024000000, Msl: 32000,
		Opm: 500, Ume: 500, Usz: 20, Vmx: 32767, Aem: 32767},
	Msg: kernel.MsgInfo{Pool: 512000, Map: 16384, Max: 8192, Mnb: 16384, Mni: 32000, Ssz: 16, Tql: 16384, Seg: 65535},
	Shm: kernel.ShmInfo{Max: 18446744073692774399, Min: 1, Mni: 4096, Seg: 4096, All: 18446744073692774399},
}

func TestIPCLimitsValues(t *testing.T) {
	h := limitsHarness(t, hostLimits)
	h.MustSample(t0)
	h.WantU64("ipc.sem.max_semmap", cache.InstNone, 1024000000)
	h.WantU64("ipc.sem.max_semid", cache.InstNone, 32000)
	h.WantU64("ipc.sem.max_perid", cache.InstNone, 32000)
	h.WantU64("ipc.sem.max_ops", cache.InstNone, 500)
	h.WantU64("ipc.sem.sz_semundo", cache.InstNone, 20)
	h.WantU64("ipc.sem.max_exit", cache.InstNone, 32767)
	h.WantU64("ipc.msg.sz_pool", cache.InstNone, 512000)
	h.WantU64("ipc.msg.max_msgsz", cache.InstNone, 8192)
	h.WantU64("ipc.msg.max_defmsgq", cache.InstNone, 16384)
	h.WantU64("ipc.msg.max_seg", cache.InstNone, 65535)
	// The kernel's 64-bit default, 2^64 - 2^24 - 1, shown as pmdalinux
	// shows it in its 32-bit metric: 4278190079.
	h.WantU64("ipc.shm.max_segsz", cache.InstNone, 4278190079)
	h.WantU64("ipc.shm.max_shmsys", cache.InstNone, 4278190079)
	h.WantU64("ipc.shm.min_segsz", cache.InstNone, 1)
	h.WantU64("ipc.shm.max_segproc", cache.InstNone, 4096)
	h.WantU64("ipc.shm.swap_attempts", cache.InstNone, 0)
}

// A kernel without message queues leaves only their limits without values.
func TestIPCLimitsKindMissing(t *testing.T) {
	l := hostLimits
	l.Msg, l.MsgErr = kernel.MsgInfo{}, syscall.ENOSYS
	h := limitsHarness(t, l)
	err := h.Sample(t0)
	var partial *engine.PartialError
	if !errors.As(err, &partial) || !strings.Contains(err.Error(), "msgctl") {
		t.Fatalf("sample error %v, want a partial one naming msgctl", err)
	}
	h.WantAbsent("ipc.msg.max_msgsz", cache.InstNone)
	h.WantU64("ipc.sem.max_semid", cache.InstNone, 32000)
	h.WantU64("ipc.shm.max_seg", cache.InstNone, 4096)
}

// The calls on this host answer what /proc/sys/kernel holds.
func TestReadIPCLimitsMatchesSysctl(t *testing.T) {
	l := kernel.ReadIPCLimits()
	if l.SemErr != nil || l.MsgErr != nil || l.ShmErr != nil {
		t.Skipf("this kernel lacks SysV IPC: %v %v %v", l.SemErr, l.MsgErr, l.ShmErr)
	}
	sysctl := func(name string) []uint64 {
		data, err := os.ReadFile("/proc/sys/kernel/" + name)
		if err != nil {
			t.Skipf("no /proc/sys/kernel/%s: %v", name, err)
		}
		var out []uint64
		for _, f := range strings.Fields(string(data)) {
			v, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = append(out, v)
		}
		return out
	}
	sem := sysctl("sem") // semmsl semmns semopm semmni
	checks := []struct {
		what      string
		got, want uint64
	}{
		{"semmsl", uint64(l.Sem.Msl), sem[0]}, {"semmns", uint64(l.Sem.Mns), sem[1]},
		{"semopm", uint64(l.Sem.Opm), sem[2]}, {"semmni", uint64(l.Sem.Mni), sem[3]},
		{"msgmax", uint64(l.Msg.Max), sysctl("msgmax")[0]}, {"msgmnb", uint64(l.Msg.Mnb), sysctl("msgmnb")[0]},
		{"msgmni", uint64(l.Msg.Mni), sysctl("msgmni")[0]}, {"shmmax", l.Shm.Max, sysctl("shmmax")[0]},
		{"shmmni", l.Shm.Mni, sysctl("shmmni")[0]}, {"shmall", l.Shm.All, sysctl("shmall")[0]},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: IPC_INFO %d, /proc/sys/kernel %d", c.what, c.got, c.want)
		}
	}
}
