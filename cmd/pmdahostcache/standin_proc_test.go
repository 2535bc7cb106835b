package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// startProcStandIn runs the agent as pmcd runs the stand-in for
// pmdaproc: domain 3, -S proc, on the fixture processes.
func startProcStandIn(t *testing.T) *driver.Agent {
	t.Helper()
	return startProcStandInIn(t, t.TempDir())
}

// startProcStandInIn runs the stand-in for pmdaproc with its ids and
// its log in dir.
func startProcStandInIn(t *testing.T, dir string) *driver.Agent {
	t.Helper()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	a, err := driver.Start(agentPath, []string{"-d", "3", "-S", "proc", "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-c", conf, "-r", "../../testdata/processes/t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	return a
}

// procMetric is pmdaproc's metric name, from its table.
func procMetric(t *testing.T, name string) standin.Metric {
	t.Helper()
	for _, m := range standin.Proc().Table() {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("pmdaproc has no %s", name)
	return standin.Metric{}
}

// asRoot sends pmcd's ATTR PDUs for a client of uid 0 and gid 0 in
// context 0: process values go only to a client whose user is known.
func asRoot(t *testing.T, a *driver.Agent) {
	t.Helper()
	for _, key := range []uint32{pmda.AttrUserID, pmda.AttrGroupID} {
		if err := a.Send((&pmda.Attr{Key: key, Value: []byte("0\x00")}).Append(nil)); err != nil {
			t.Fatal(err)
		}
	}
}

// Standing in for pmdaproc, the agent answers proc.psinfo.pid as
// pmdaproc's 3.8.0 in its process domain 3.9, with pmdaproc's instance
// names, and the values of the process collector; pmcd learns the names
// below pmdaproc's dynamic nodes from it; a pmdaproc metric no collector
// samples has pmdaproc's descriptor and no value; hostcache's own PMIDs
// are unknown there.
func TestStandInAnswersAsPmdaproc(t *testing.T) {
	a := startProcStandIn(t)
	proc := standin.Proc()
	pid := procMetric(t, "proc.psinfo.pid")
	_, reply, err := a.Request((&pmda.DescReq{PMID: proc.PMID(pid)}).Append(nil))
	var d pmda.Desc
	if err != nil || d.Decode(reply) != nil || d.PMID != proc.PMID(pid) || d.InDom != proc.WireInDom(9) {
		t.Fatalf("desc of proc.psinfo.pid %#x: %v %x; want indom 3.9", proc.PMID(pid), err, reply)
	}
	asRoot(t, a)
	_, reply, err = a.Request((&pmda.InstanceReq{InDom: proc.WireInDom(9), Inst: pmda.InstNull}).Append(nil))
	_, all, derr := pmda.DecodeInstance(reply)
	if err != nil || derr != nil {
		t.Fatalf("instances of 3.9: %v %v %x", err, derr, reply)
	}
	var names []string
	for _, in := range all {
		names = append(names, in.Name)
	}
	slices.Sort(names)
	want := []string{"000001 /sbin/init", "000002 (kthreadd)", "000100 -bash", "000300 sleep"}
	if !slices.Equal(names, want) {
		t.Errorf("3.9's instances %q, want %q", names, want)
	}
	req := func(p []byte) []byte {
		_, reply, err := a.Request(p)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	res := fetchValues(t, req, 4, proc.PMID(pid))
	for _, v := range res.Sets[0].Values {
		if v.Inst != v.Word {
			t.Errorf("proc.psinfo.pid of instance %d is %d", v.Inst, v.Word)
		}
	}
	threads := procMetric(t, "proc.control.all.threads")
	_, reply, err = a.Request((&pmda.DescReq{PMID: proc.PMID(threads)}).Append(nil))
	if err != nil || d.Decode(reply) != nil || d.PMID != proc.PMID(threads) {
		t.Errorf("desc of proc.control.all.threads: %v %x", err, reply)
	}
	// pmdaproc's PMNS leaves the names below proc.psinfo and its
	// siblings to the agent: they are pmdaproc's, twins and placeholders.
	names = traverse(t, a, "proc.psinfo")
	if !slices.Contains(names, "proc.psinfo.pid") || !slices.Contains(names, "proc.psinfo.environ") ||
		len(names) != 63 {
		t.Errorf("below proc.psinfo: %d names %q", len(names), names)
	}
	if names = traverse(t, a, "hotproc.io"); len(names) != 7 {
		t.Errorf("below hotproc.io: %q", names)
	}
	own := pmidOf("hostcache.proc.psinfo.pid")
	if h, _, err := a.Request((&pmda.DescReq{PMID: own}).Append(nil)); err != nil || h.Type != pmda.TypeError {
		t.Errorf("hostcache's own %#x answered on pmdaproc's pipe: %v %v", own, h, err)
	}
}

// One process stands in for pmdaproc on its pipe and for pmdalinux on a
// socket (-B linux=path), beside hostcache's own socket: each connection
// answers its own domain's PMIDs, and none another's.
func TestStandInForBothAgents(t *testing.T) {
	dir := t.TempDir()
	own, linux := filepath.Join(dir, "hostcache.socket"), filepath.Join(dir, "linux.socket")
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	a, err := driver.Start(agentPath, []string{"-d", "3", "-S", "proc", "-B", own, "-B", "linux=" + linux,
		"-l", filepath.Join(dir, "agent.log"), "-U", "root", "-c", conf, "-r", "../../testdata/proc-t0",
		"-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	pipe := func(p []byte) []byte {
		_, reply, err := a.Request(p)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	l, b := dialBeside(t, linux), dialBeside(t, own)
	onLinux := func(p []byte) []byte { return l.request(t, p) }
	onOwn := func(p []byte) []byte { return b.request(t, p) }
	nprocs := standin.Proc().PMID(procMetric(t, "proc.nprocs"))
	load := standin.Linux().PMID(linuxPMID(t, "kernel.all.load"))
	fetchValues(t, pipe, 1, nprocs)
	fetchValues(t, onLinux, 3, load)
	fetchValues(t, onOwn, 3, pmidOf("hostcache.kernel.all.load"))
	for _, c := range []struct {
		where   string
		request func([]byte) []byte
		pmid    uint32
	}{{"the pipe", pipe, load}, {"pmdalinux's socket", onLinux, nprocs}, {"hostcache's socket", onOwn, load}} {
		h, _ := pmda.DecodeHeader(c.request((&pmda.DescReq{PMID: c.pmid}).Append(nil)))
		if h.Type != pmda.TypeError {
			t.Errorf("%s answers %#x, another domain's PMID, with %s", c.where, c.pmid, h.Type)
		}
	}
}
