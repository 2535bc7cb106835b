package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// procWithHiddenCPUs is proc-t0 with /proc/cpuinfo listing two CPUs more
// than /proc/stat, as on a host whose CPUs are offline.
func procWithHiddenCPUs(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../testdata/proc-t0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "cpuinfo" {
			if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(src, "cpuinfo"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(strings.TrimRight(string(data), "\n"), "\n\n")
	last := blocks[len(blocks)-1]
	for _, n := range []string{"2", "3"} {
		blocks = append(blocks, strings.Replace(last, "processor\t: 1", "processor\t: "+n, 1))
	}
	if err := os.WriteFile(filepath.Join(dir, "cpuinfo"), []byte(strings.Join(blocks, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Standing in, hinv.cpu.* has the instances of pmdalinux's CPU domain,
// the CPUs of /proc/stat, however many /proc/cpuinfo lists.
func TestStandInCPUInfoHasStatsCPUs(t *testing.T) {
	proc := procWithHiddenCPUs(t)
	if data, _ := os.ReadFile(filepath.Join(proc, "cpuinfo")); strings.Count(string(data), "processor\t:") != 4 {
		t.Fatalf("the fixture's cpuinfo lists %d CPUs, want 4", strings.Count(string(data), "processor\t:"))
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	if err := os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := driver.Start(agentPath, []string{"-d", "60", "-S", "linux", "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-c", conf, "-r", proc, "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	clock := linuxPMID(t, "hinv.cpu.clock")
	user := linuxPMID(t, "kernel.percpu.cpu.user")
	var cpus, stat []uint32
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, reply, err := a.Request((&pmda.Fetch{PMIDs: []uint32{standin.Linux().PMID(clock), standin.Linux().PMID(user)}}).Append(nil))
		var res pmda.Result
		if err != nil || res.Decode(reply) != nil || len(res.Sets) != 2 {
			t.Fatalf("fetch: %v %x", err, reply)
		}
		cpus, stat = instsOf(res.Sets[0]), instsOf(res.Sets[1])
		if len(cpus) > 0 && len(stat) > 0 {
			break
		}
	}
	if len(stat) != 2 || !slices.Equal(cpus, stat) {
		t.Errorf("hinv.cpu.clock has instances %v, kernel.percpu.cpu.user %v: want /proc/stat's 2 CPUs for both", cpus, stat)
	}
	// Beside pmdalinux, hostcache's own hinv.cpu.* lists every CPU of
	// /proc/cpuinfo: the fixture does hide two CPUs from /proc/stat.
	if own := besideCPUs(t, proc); len(own) != 4 {
		t.Errorf("beside pmdalinux hostcache.hinv.cpu.clock has instances %v, want cpuinfo's 4", own)
	}
}

// besideCPUs is the instances of hostcache.hinv.cpu.clock from the agent
// in its own domain on proc.
func besideCPUs(t *testing.T, proc string) []uint32 {
	t.Helper()
	dir := t.TempDir()
	a, err := driver.Start(agentPath, []string{"-d", "396", "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-r", proc, "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Kill()
	clock := pmidOf("hostcache.hinv.cpu.clock")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, reply, err := a.Request((&pmda.Fetch{PMIDs: []uint32{clock}}).Append(nil))
		var res pmda.Result
		if err != nil || res.Decode(reply) != nil || len(res.Sets) != 1 {
			t.Fatalf("fetch: %v %x", err, reply)
		}
		if insts := instsOf(res.Sets[0]); len(insts) > 0 {
			return insts
		}
	}
	return nil
}

func instsOf(s pmda.ResultSet) []uint32 {
	var out []uint32
	for _, v := range s.Values {
		out = append(out, v.Inst)
	}
	slices.Sort(out)
	return out
}
