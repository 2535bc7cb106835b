package pmda

import (
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// A process metric, its threads view, and pmdaproc's three controls, as
// collector/proc declares them (with ids of this test's own).
var (
	pUtime = cache.Desc{Name: "p.utime", ID: cache.NewMetricID(8, 6), Type: cache.TypeU64,
		Sem: cache.SemCounter, InDom: 50, Access: cache.AccessKnown}
	pUtimeThreads = cache.Desc{Name: "p.threads.utime", ID: cache.NewMetricID(308, 6), Type: cache.TypeU64,
		Sem: cache.SemCounter, InDom: 51, Access: cache.AccessKnown, Threads: true, ThreadsOf: pUtime.ID}
	pAll = cache.Desc{Name: "p.control.all.threads", ID: cache.NewMetricID(10, 1), Type: cache.TypeU32,
		Sem: cache.SemInstant, InDom: cache.InDomNone, Control: cache.ControlAllThreads}
	pOwn = cache.Desc{Name: "p.control.perclient.threads", ID: cache.NewMetricID(10, 2), Type: cache.TypeU32,
		Sem: cache.SemInstant, InDom: cache.InDomNone, Control: cache.ControlClientThreads}
	pCgroup = cache.Desc{Name: "p.control.perclient.cgroups", ID: cache.NewMetricID(10, 3),
		Type: cache.TypeString, Sem: cache.SemInstant, InDom: cache.InDomNone, Control: cache.ControlClientCgroups}
)

// newThreadsServer serves process 300 (utime 300) and, in the threads
// view, its threads 300 and 301 (utime 50 and 100). Root and group 998
// may store the agent's state.
func newThreadsServer(t *testing.T) *Server {
	t.Helper()
	schema, err := cache.NewSchema(cache.Source{Name: "p",
		Metrics: []cache.Desc{pUtime, pUtimeThreads, pAll, pOwn, pCgroup},
		InDoms: []cache.InDomDesc{{ID: 50, Name: "processes", Access: cache.AccessKnown},
			{ID: 51, Name: "threads", Access: cache.AccessKnown, Threads: true, ThreadsOf: 50}}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	b.SetInDom(50, cache.NewInstances([]cache.Instance{{ID: 300, Name: "000300 sleep"}}))
	b.SetInDom(51, cache.NewInstances([]cache.Instance{{ID: 300, Name: "000300 sleep"},
		{ID: 301, Name: "000301 sleep"}}))
	b.SetU64(pUtime.ID, 300, 300)
	b.SetU64(pUtimeThreads.ID, 300, 50)
	b.SetU64(pUtimeThreads.ID, 301, 100)
	part, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	front.Publish(0, part)
	return NewServer(Config{Domain: testDomain, Front: front, Log: zerolog.Nop(), Controls: cache.NewProcControls(),
		StoreAccess: &StoreAccess{Users: []uint32{0}, Groups: []uint32{998}}}, nil, io.Discard)
}

// describe has pmcd name client from's user and group.
func describe(t *testing.T, s *Server, from int32, uid, gid string) {
	t.Helper()
	for key, v := range map[uint32]string{AttrUserID: uid, AttrGroupID: gid} {
		if _, err := s.handleAttr(Header{From: from}, attrPDU(from, key, v+"\x00")); err != nil {
			t.Fatal(err)
		}
	}
}

// fetchFor fetches d as client from and returns its values by instance.
func fetchFor(t *testing.T, s *Server, from int32, d cache.Desc) map[uint32]cache.Value {
	t.Helper()
	reply, err := s.handleFetch(Header{From: from}, (&Fetch{PMIDs: []uint32{wirePMID(d)}}).Append(nil))
	var res Result
	if err != nil || res.Decode(reply) != nil || len(res.Sets) != 1 {
		t.Fatalf("fetch of %s for %d: %v %x", d.Name, from, err, reply)
	}
	out := map[uint32]cache.Value{}
	for _, v := range res.Sets[0].Values {
		out[v.Inst] = cache.Value{Inst: v.Inst, Bits: uint64(v.Word), Str: string(v.Payload)}
		if len(v.Payload) == 8 {
			out[v.Inst] = cache.Value{Inst: v.Inst, Bits: beUint64(v.Payload)}
		}
	}
	return out
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// listFor lists the process domain's instance ids as client from sees them.
func listFor(t *testing.T, s *Server, from int32) []uint32 {
	t.Helper()
	reply, err := s.handleInstance(Header{From: from},
		(&InstanceReq{InDom: testDomain<<22 | 50, Inst: InstNull}).Append(nil))
	_, all, derr := DecodeInstance(reply)
	if err != nil || derr != nil {
		t.Fatalf("instances for %d: %v %v", from, err, derr)
	}
	var ids []uint32
	for _, x := range all {
		ids = append(ids, x.Inst)
	}
	slices.Sort(ids)
	return ids
}

// storeFor stores one value of d as client from and returns the code.
func storeFor(s *Server, from int32, d cache.Desc, v cache.Value) Errno {
	pdu := AppendResult(nil, 0, []ValueSet{{PMID: wirePMID(d), Type: d.Type, Values: []cache.Value{v}}})
	_, err := s.handleStore(Header{From: from}, pdu)
	var code Errno
	if err != nil && !errors.As(err, &code) {
		return ErrIPC
	}
	return code
}

// A client that stores perclient.threads 1 sees the threads, with their
// own values, in the process domain's place; another client goes on
// seeing the processes; the setting ends with the client.
func TestPerClientThreads(t *testing.T) {
	s := newThreadsServer(t)
	describe(t, s, 1, "1000", "100")
	describe(t, s, 2, "1001", "100")
	if c := storeFor(s, 1, pOwn, cache.U32Value(cache.InstNone, 1)); c != 0 {
		t.Fatalf("store of perclient.threads 1: %v", c)
	}
	if got := listFor(t, s, 1); !slices.Equal(got, []uint32{300, 301}) {
		t.Errorf("the threads client lists %v", got)
	}
	if got := listFor(t, s, 2); !slices.Equal(got, []uint32{300}) {
		t.Errorf("the other client lists %v", got)
	}
	if v := fetchFor(t, s, 1, pUtime); len(v) != 2 || v[300].Bits != 50 || v[301].Bits != 100 {
		t.Errorf("the threads client fetches utime %v", v)
	}
	if v := fetchFor(t, s, 2, pUtime); len(v) != 1 || v[300].Bits != 300 {
		t.Errorf("the other client fetches utime %v", v)
	}
	if v := fetchFor(t, s, 1, pOwn); v[cache.InstNone].Bits != 1 {
		t.Errorf("perclient.threads for the threads client %v", v)
	}
	if v := fetchFor(t, s, 2, pOwn); v[cache.InstNone].Bits != 0 {
		t.Errorf("perclient.threads for the other client %v", v)
	}
	if _, err := s.handleError(Header{From: 1}, (&ErrorPDU{Code: ErrNotConn}).Append(nil)); err != nil {
		t.Fatal(err)
	}
	describe(t, s, 1, "1000", "100")
	if got := listFor(t, s, 1); !slices.Equal(got, []uint32{300}) {
		t.Errorf("client 1 gone and back lists %v", got)
	}
}

// The stores pmdaproc refuses are refused with its codes: a value other
// than 0 or 1, an empty cgroup, a client pmcd named no user for; and
// all.threads, which changes every client's view, only as the agent's
// store rule allows.
func TestControlStoresRefused(t *testing.T) {
	s := newThreadsServer(t)
	describe(t, s, 1, "1000", "100")
	describe(t, s, 4, "0", "0")
	cases := []struct {
		from int32
		d    cache.Desc
		v    cache.Value
		want Errno
	}{
		{1, pOwn, cache.U32Value(cache.InstNone, 2), ErrBadStore},
		{1, pCgroup, cache.StringValue(cache.InstNone, ""), ErrBadStore},
		{3, pOwn, cache.U32Value(cache.InstNone, 1), ErrNoContext},
		{3, pCgroup, cache.StringValue(cache.InstNone, "/sys/fs/cgroup/a"), ErrNoContext},
		{1, pAll, cache.U32Value(cache.InstNone, 1), ErrPermission},
		{3, pAll, cache.U32Value(cache.InstNone, 1), ErrPermission},
		{4, pAll, cache.U32Value(cache.InstNone, 7), ErrBadStore},
	}
	for _, c := range cases {
		if got := storeFor(s, c.from, c.d, c.v); got != c.want {
			t.Errorf("%s = %v from %d: %v, want %v", c.d.Name, c.v, c.from, got, c.want)
		}
	}
	if got := listFor(t, s, 1); !slices.Equal(got, []uint32{300}) {
		t.Errorf("after refused stores client 1 lists %v", got)
	}
}

// all.threads, stored by a client the agent allows, turns the threads
// on for every client that set nothing of its own; the cgroup a client
// stores is its own, read back as stored.
func TestAllThreadsAndCgroups(t *testing.T) {
	s := newThreadsServer(t)
	describe(t, s, 1, "1000", "100")
	describe(t, s, 2, "1001", "100")
	describe(t, s, 4, "0", "0")
	if c := storeFor(s, 2, pOwn, cache.U32Value(cache.InstNone, 0)); c != 0 {
		t.Fatalf("store of perclient.threads 0: %v", c)
	}
	if c := storeFor(s, 4, pAll, cache.U32Value(cache.InstNone, 1)); c != 0 {
		t.Fatalf("root's store of all.threads 1: %v", c)
	}
	if got := listFor(t, s, 1); !slices.Equal(got, []uint32{300, 301}) {
		t.Errorf("a client with no setting lists %v", got)
	}
	if got := listFor(t, s, 2); !slices.Equal(got, []uint32{300}) {
		t.Errorf("a client that stored 0 lists %v", got)
	}
	if v := fetchFor(t, s, 2, pAll); v[cache.InstNone].Bits != 1 {
		t.Errorf("all.threads %v", v)
	}
	if c := storeFor(s, 1, pCgroup, cache.StringValue(cache.InstNone, "/sys/fs/cgroup/a")); c != 0 {
		t.Fatalf("store of perclient.cgroups: %v", c)
	}
	if v := fetchFor(t, s, 1, pCgroup); v[cache.InstNone].Str != "/sys/fs/cgroup/a\x00" {
		t.Errorf("client 1's cgroup %q", v[cache.InstNone].Str)
	}
	if v := fetchFor(t, s, 2, pCgroup); v[cache.InstNone].Str != "\x00" {
		t.Errorf("client 2's cgroup %q", v[cache.InstNone].Str)
	}
}

// A client that sees threads gets a label set for each thread.
func TestThreadsClientLabelsThreads(t *testing.T) {
	s := newThreadsServer(t)
	describe(t, s, 1, "1000", "100")
	describe(t, s, 2, "1001", "100")
	if c := storeFor(s, 1, pOwn, cache.U32Value(cache.InstNone, 1)); c != 0 {
		t.Fatalf("store of perclient.threads 1: %v", c)
	}
	for from, want := range map[int32]int{1: 2, 2: 1} {
		q := (&LabelReq{Ident: testDomain<<22 | 50, Type: LabelInstances}).Append(nil)
		reply, err := s.handleLabel(Header{From: from}, q)
		if err != nil || len(reply) < 28 {
			t.Fatalf("client %d: labels %v %x", from, err, reply)
		}
		if n := int(binary.BigEndian.Uint32(reply[24:])); n != want {
			t.Errorf("client %d: %d label sets, want %d", from, n, want)
		}
	}
}
