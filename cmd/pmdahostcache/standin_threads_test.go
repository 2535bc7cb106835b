package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// asClient sets the client a request comes from in its header, as pmcd
// numbers its clients.
func asClient(pdu []byte, from int32) []byte {
	binary.BigEndian.PutUint32(pdu[8:], uint32(from))
	return pdu
}

// describeClient sends pmcd's ATTR PDUs for client from, of uid and gid 0.
func describeClient(t *testing.T, a *driver.Agent, from int32) {
	t.Helper()
	for _, key := range []uint32{pmda.AttrUserID, pmda.AttrGroupID} {
		if err := a.Send((&pmda.Attr{From: from, Key: key, Value: []byte("0\x00")}).Append(nil)); err != nil {
			t.Fatal(err)
		}
	}
}

// Standing in for pmdaproc on the threads fixture, a client that stores
// proc.control.perclient.threads 1 by pmdaproc's PMID (3.10.2, as
// pcp-atop stores it) lists every thread in 3.9 and fetches the threads'
// own values; another client lists the processes as before.
func TestStandInShowsThreadsToOneClient(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "hostcache.conf")
	os.WriteFile(conf, []byte("id_dir = "+dir+"\n"), 0o644)
	a, err := driver.Start(agentPath, []string{"-d", "3", "-S", "proc", "-l", filepath.Join(dir, "agent.log"),
		"-U", "root", "-c", conf, "-r", "../../testdata/threads/t0", "-s", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Kill)
	proc := standin.Proc()
	describeClient(t, a, 1)
	describeClient(t, a, 2)
	req := func(from int32, p []byte) []byte {
		t.Helper()
		_, reply, err := a.Request(asClient(p, from))
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	list := func(from int32) []uint32 {
		t.Helper()
		_, all, err := pmda.DecodeInstance(req(from,
			(&pmda.InstanceReq{InDom: proc.WireInDom(9), Inst: pmda.InstNull}).Append(nil)))
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint32
		for _, x := range all {
			ids = append(ids, x.Inst)
		}
		slices.Sort(ids)
		return ids
	}
	store := pmda.AppendResult(nil, 0, []pmda.ValueSet{{PMID: proc.WirePMID(10, 2), Type: cache.TypeU32,
		Values: []cache.Value{cache.U32Value(cache.InstNone, 1)}}})
	var e pmda.ErrorPDU
	if err := e.Decode(req(1, store)); err != nil || e.Code != 0 {
		t.Fatalf("store of proc.control.perclient.threads: %v %v", err, e.Code)
	}
	if got := list(1); !slices.Equal(got, []uint32{1, 2, 100, 300, 301, 302}) {
		t.Errorf("the threads client lists %v", got)
	}
	if got := list(2); !slices.Equal(got, []uint32{1, 2, 100, 300}) {
		t.Errorf("the other client lists %v", got)
	}
	utime := proc.PMID(procMetric(t, "proc.psinfo.utime"))
	nprocs := proc.PMID(procMetric(t, "proc.nprocs"))
	res := fetchValues(t, func(p []byte) []byte { return req(1, p) }, 6, utime, nprocs)
	for _, v := range res.Sets[0].Values {
		got := binary.BigEndian.Uint64(v.Payload)
		if want := map[uint32]uint64{300: 50, 301: 100, 302: 150}[v.Inst]; want != 0 && got != want {
			t.Errorf("thread %d's utime %d, want %d", v.Inst, got, want)
		}
	}
	if n := res.Sets[1].Values; len(n) != 1 || n[0].Word != 6 {
		t.Errorf("proc.nprocs for the threads client %+v", n)
	}
	res = fetchValues(t, func(p []byte) []byte { return req(2, p) }, 4, utime, nprocs)
	for _, v := range res.Sets[0].Values {
		if got := binary.BigEndian.Uint64(v.Payload); v.Inst == 300 && got != 300 {
			t.Errorf("process 300's utime %d for the other client, want the sum 300", got)
		}
	}
	if n := res.Sets[1].Values; len(n) != 1 || n[0].Word != 4 {
		t.Errorf("proc.nprocs for the other client %+v", n)
	}
}
