package proc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// newAllHarness runs every collector of Registry (the process collector
// and the groups') in one engine on a copy of testdata/<tree>, as the
// agent runs them. h.C is the process collector.
func newAllHarness(t *testing.T, tree string) (*collectortest.Harness, []engine.Collector) {
	t.Helper()
	h := &collectortest.Harness{T: t, Proc: t.TempDir()}
	h.Use(tree)
	return attachAll(t, h)
}

// attachAll builds every collector of Registry on h's /proc root.
func attachAll(t *testing.T, h *collectortest.Harness) (*collectortest.Harness, []engine.Collector) {
	t.Helper()
	env := engine.Env{Proc: h.Proc}
	var cs []engine.Collector
	for _, reg := range Registry() {
		c, err := reg.Factory(env)
		if err != nil {
			t.Fatalf("%s: %v", reg.Name, err)
		}
		cs = append(cs, c)
	}
	runner := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second})
	schema, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	h.C, h.Runner, h.Store = cs[0], runner, cache.NewFront(schema)
	if err := runner.Attach(h.Store); err != nil {
		t.Fatal(err)
	}
	return h, cs
}

// links makes the exe and cwd links the fixture copy cannot hold.
func links(t *testing.T, root string, pid, exe, cwd string) {
	t.Helper()
	for name, to := range map[string]string{"exe": exe, "cwd": cwd} {
		if err := os.Symlink(to, filepath.Join(root, pid, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func wantStrings(t *testing.T, h *collectortest.Harness, want map[string]map[uint32]string) {
	t.Helper()
	for name, byInst := range want {
		for inst, s := range byInst {
			if v := h.MustValue(name, inst); v.Str != s {
				t.Errorf("%s[%d] = %q, want %q", name, inst, v.Str, s)
			}
		}
	}
}

// The groups' values, as pmdaproc forms them, for the processes the
// process collector lists; a file missing or odd leaves that process's
// metric alone without a value.
func TestGroupsFromFixture(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	links(t, h.Proc, "1", "/usr/lib/systemd/systemd", "/")
	links(t, h.Proc, "100", "/usr/bin/bash", "/home/u")
	h.MustSample(collectortest.T0)
	cid := strings.Repeat("0123456789abcdef", 4)
	wantStrings(t, h, map[string]map[uint32]string{
		"proc.psinfo.wchan_s":  {1: "do_epoll_wait", 2: "kthreadd", 100: "0"},
		"proc.psinfo.cgroups":  {1: "cpu,cpuacct:/;cpuset:/docker/" + cid + ";memory:/docker/" + cid + ";:/", 2: ":/"},
		"proc.id.container":    {1: cid, 2: "", 100: ""},
		"proc.psinfo.exe":      {1: "/usr/lib/systemd/systemd", 2: "", 100: "/usr/bin/bash"},
		"proc.psinfo.cwd":      {1: "/", 2: "", 100: "/home/u"},
		"proc.psinfo.labels":   {1: "system_u:system_r:init_t:s0"},
		"proc.psinfo.environ":  {1: "HOME=/ TERM=linux", 2: "", 100: "USER=u PATH=/usr/bin:/bin SHELL=/bin/bash"},
		"proc.memory.maps":     {2: "", 100: "5600-5700 r-xp 00000000 08:01 42 /usr/bin/bash\n"},
		"proc.psinfo.signal_s": {1: "0000000000000000", 100: "0000000000000002"},
		"proc.namespaces.pid":  {1: "1", 100: "100", 300: "300,1"},
		"proc.namespaces.sid":  {300: "290,0"},
		"proc.namespaces.tgid": {300: "300,1"},
		"proc.namespaces.pgid": {300: "300,1"},
	})
	h.WantU64("proc.smaps.rss", 1, 9048)
	h.WantU64("proc.smaps.pss_file", 1, 2021)
	h.WantU64("proc.smaps.swappss", 1, 40)
	h.WantU64("proc.smaps.pss", 100, 1500)
	h.WantU64("proc.smaps.pss_anon", 100, 0) // a line the kernel did not print
	h.WantU64("proc.fd.count", 1, 3)
	h.WantU64("proc.fd.count", 100, 4)
	h.WantU64("proc.psinfo.oom_score", 100, 666)
	h.WantU64("proc.autogroup.enabled", 0xffffffff, 1)
	h.WantU64("hotproc.autogroup.enabled", 0xffffffff, 1) // hotproc off, as pmdaproc gives it
	h.WantAbsent("hotproc.autogroup.id", 100)
	h.WantU64("proc.autogroup.id", 100, 42)
	h.WantU64("proc.autogroup.id", 2, 0) // in no autogroup: an empty file
	h.WantU64("proc.autogroup.nice", 2, 0)
	h.WantU64("proc.namespaces.envid", 300, 101)
	if v := h.MustValue("proc.autogroup.nice", 100); int64(v.Bits) != -3 {
		t.Errorf("autogroup.nice of 100 = %d", int64(v.Bits))
	}
	h.WantU64("proc.psinfo.start_code", 100, 0x55d0c0a00000&0xffffffff)
	h.WantU64("proc.psinfo.end_code", 100, 0x55d0c0a2c000&0xffffffff)
	h.WantU64("proc.psinfo.start_stack", 100, 0x7ffc8a5fe000&0xffffffff)
	h.WantU64("proc.psinfo.wchan", 100, 1)
	h.WantU64("proc.psinfo.esp", 1, 0)
	for name, insts := range map[string][]uint32{
		"proc.smaps.rss":        {2, 300}, // a kernel thread's empty rollup; a bad number
		"proc.fd.count":         {2, 300}, // no fd directory
		"proc.psinfo.oom_score": {300},    // not a number
		"proc.psinfo.cgroups":   {300},    // a line of one part
		"proc.id.container":     {300},
		"proc.psinfo.wchan_s":   {300},    // an empty file
		"proc.autogroup.id":     {300},    // no id
		"proc.psinfo.labels":    {2, 100}, // no attr/current
		"proc.psinfo.environ":   {300},    // no file
		"proc.namespaces.envid": {1, 100}, // no envID line
	} {
		for _, inst := range insts {
			h.WantAbsent(name, inst)
		}
	}
}

// The maps and environ texts are cut at 64 KiB, at the last whole line
// or variable; the string of an unchanged text is kept, not made anew,
// and a process no sample read is forgotten.
func TestLongTextsAreBounded(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	line := "7f0000000000-7f0000001000 r--p 00000000 08:01 99 /usr/lib/libsomething.so\n"
	big := strings.Repeat(line, maxLongText/len(line)+10)
	os.WriteFile(filepath.Join(h.Proc, "100", "maps"), []byte(big), 0o644)
	vars := strings.Repeat("X=0123456789\x00", maxLongText/13+10)
	os.WriteFile(filepath.Join(h.Proc, "100", "environ"), []byte(vars), 0o644)
	h.MustSample(collectortest.T0)
	maps := h.MustValue("proc.memory.maps", 100).Str
	if len(maps) > maxLongText || len(maps) < maxLongText-len(line) || !strings.HasSuffix(maps, line) {
		t.Errorf("maps cut to %d bytes, ending %q", len(maps), maps[max(0, len(maps)-20):])
	}
	env := h.MustValue("proc.psinfo.environ", 100).Str
	if len(env) > maxLongText || len(env) < maxLongText-13 || !strings.HasSuffix(env, "X=0123456789") {
		t.Errorf("environ cut to %d bytes, ending %q", len(env), env[max(0, len(env)-20):])
	}
	kept := newTexts()
	kept.begin()
	first := kept.of(7, []byte("same text"))
	kept.begin()
	second := kept.of(7, []byte("same text"))
	if unsafe.StringData(first) != unsafe.StringData(second) {
		t.Error("an unchanged text was made anew")
	}
	kept.begin()
	kept.sweep()
	if len(kept.byPID) != 0 {
		t.Errorf("the keeper holds %d texts of processes no sample read", len(kept.byPID))
	}
}

// Who reads what: per-process values go to clients pmcd named a user for;
// the files the kernel guards with its ptrace check (exe, cwd, environ,
// maps, smaps, fd, wchan_s and stat's addresses) to root and the owner
// alone; a client pmcd named no user for gets nothing.
func TestGroupsAccess(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	// 100 belongs to uid 1000, gid 100: its /proc directory is theirs.
	if err := os.Chown(filepath.Join(h.Proc, "100"), 1000, 100); err != nil {
		t.Skipf("cannot give the fixture process to its user: %v", err)
	}
	links(t, h.Proc, "100", "/usr/bin/bash", "/home/u")
	h.MustSample(collectortest.T0)
	owner := cache.Credentials{Known: true, UID: 1000, GID: 100}
	other := cache.Credentials{Known: true, UID: 1001, GID: 100}
	root := cache.Credentials{Known: true}
	ownerOnly := []string{"proc.psinfo.exe", "proc.psinfo.cwd", "proc.psinfo.environ", "proc.memory.maps",
		"proc.smaps.rss", "proc.smaps.pss", "proc.fd.count", "proc.psinfo.wchan_s", "proc.psinfo.start_code",
		"proc.psinfo.end_code", "proc.psinfo.start_stack", "proc.psinfo.esp", "proc.psinfo.eip",
		"proc.psinfo.wchan"}
	everyKnown := []string{"proc.psinfo.oom_score", "proc.psinfo.cgroups", "proc.id.container",
		"proc.autogroup.id", "proc.autogroup.nice", "proc.namespaces.pid", "proc.psinfo.signal_s"}
	for _, name := range ownerOnly {
		if h.Desc(name).Access != cache.AccessOwner {
			t.Errorf("%s is not the owner's alone", name)
		}
		wantRead(t, h, name, 100, root, true)
		wantRead(t, h, name, 100, owner, true)
		wantRead(t, h, name, 100, other, false)
		wantRead(t, h, name, 1, owner, false) // root's process
	}
	for _, name := range everyKnown {
		if h.Desc(name).Access != cache.AccessKnown {
			t.Errorf("%s is not for every known client", name)
		}
		wantRead(t, h, name, 100, other, true)
		wantRead(t, h, name, 100, cache.Credentials{}, false)
	}
	d := h.Desc("proc.autogroup.enabled")
	if got := len(readAs(h, d, cache.Credentials{})); d.Access != cache.AccessKnown || got != 0 {
		t.Errorf("autogroup.enabled: access %v, %d values to a client of no user", d.Access, got)
	}
}

func readAs(h *collectortest.Harness, d *cache.Desc, who cache.Credentials) []cache.Value {
	r := cache.Request{Snap: h.Store.Load(), Now: h.Now, Client: cache.NoClient, Who: who}
	return r.AppendValues(nil, d)
}

func wantRead(t *testing.T, h *collectortest.Harness, name string, inst uint32, who cache.Credentials, want bool) {
	t.Helper()
	got := false
	for _, v := range readAs(h, h.Desc(name), who) {
		got = got || v.Inst == inst
	}
	if got != want {
		t.Errorf("%s[%d] read by %+v: %v, want %v", name, inst, who, got, want)
	}
}

// While the engine has slowed a group down (no client read it for
// idle_after), the group reads no file and publishes no value; at its
// interval again, it reads them at its next sample.
func TestGroupReadsNothingWhileUnread(t *testing.T) {
	h, cs := newAllHarness(t, "processes/t0")
	var smaps *groupCollector
	for _, c := range cs {
		if c.Name() == "proc_smaps" {
			smaps = c.(*groupCollector)
		}
	}
	h.MustSample(collectortest.T0)
	h.WantU64("proc.smaps.rss", 1, 9048)
	// The engine tells a Paced collector its factor when it changes.
	smaps.Pace(engine.DefaultIdleFactor)
	h.MustSample(collectortest.T1)
	if n := h.Published("proc.smaps."); n != 0 {
		t.Errorf("a slowed group published %d values", n)
	}
	h.WantU64("proc.psinfo.utime", 1, 5000) // the process collector goes on
	smaps.Pace(1)
	h.MustSample(collectortest.T1.Add(2 * time.Second))
	h.WantU64("proc.smaps.rss", 1, 9048)
}

// With the process collector disabled, a group has no domain to publish
// into: it declares no metric, and the agent still starts.
func TestGroupWithoutProcessCollector(t *testing.T) {
	f := groupFactory("proc_smaps", func() group { return &smapsGroup{} }, &board{})
	c, err := f(engine.Env{Proc: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.Source().Metrics); n != 0 {
		t.Errorf("%d metrics with no process domain", n)
	}
	if _, err := cache.NewSchema(c.Source()); err != nil {
		t.Error(err)
	}
}

// A refused read is "" only for an agent running as root, whose refusal
// is root's answer too; a missing file or no error is never one.
func TestRefusedAsEmpty(t *testing.T) {
	root := syscall.Geteuid() == 0
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&fs.PathError{Op: "open", Path: "/proc/1/environ", Err: syscall.EACCES}, root},
		{&fs.PathError{Op: "readlink", Path: "/proc/1/exe", Err: syscall.EPERM}, root},
		{&fs.PathError{Op: "open", Path: "/proc/1/environ", Err: syscall.ENOENT}, false},
		{nil, false},
	} {
		if got := refusedAsEmpty(tc.err); got != tc.want {
			t.Errorf("%v: %v, want %v (agent as root: %v)", tc.err, got, tc.want, root)
		}
	}
}
