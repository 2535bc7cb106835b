package pmda

import (
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Processes as the proc collector publishes them: listed to clients pmcd
// named a user for, their io to their owner and root.
var (
	tPID = cache.Desc{Name: "t.pid", ID: cache.NewMetricID(2, 0), Type: cache.TypeU32, Sem: cache.SemDiscrete,
		InDom: 9, Access: cache.AccessKnown}
	tIO = cache.Desc{Name: "t.io", ID: cache.NewMetricID(2, 1), Type: cache.TypeU64, Sem: cache.SemCounter,
		InDom: 9, Access: cache.AccessOwner}
)

func newProcessServer(t *testing.T) *Server {
	t.Helper()
	schema, err := cache.NewSchema(cache.Source{Name: "proc", Metrics: []cache.Desc{tPID, tIO},
		InDoms: []cache.InDomDesc{{ID: 9, Name: "processes", Access: cache.AccessKnown}}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	b.SetInDom(9, cache.NewInstances([]cache.Instance{{ID: 1, Name: "000001 init"},
		{ID: 100, Name: "000100 sh", Owner: cache.Owner{UID: 1000, GID: 1000}}}))
	for _, pid := range []uint32{1, 100} {
		b.SetU64(tPID.ID, pid, uint64(pid))
		b.SetU64(tIO.ID, pid, 5)
	}
	part, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	front.Publish(0, part)
	return NewServer(Config{Domain: testDomain, Front: front, Log: zerolog.Nop(), Now: time.Now}, nil, io.Discard)
}

// fetchInsts fetches one metric for client from and returns the instances
// that came back.
func fetchInsts(t *testing.T, s *Server, from int32, d cache.Desc) []uint32 {
	t.Helper()
	reply, err := s.handleFetch(Header{From: from}, (&Fetch{PMIDs: []uint32{wirePMID(d)}}).Append(nil))
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := res.Decode(reply); err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for _, v := range res.Sets[0].Values {
		got = append(got, v.Inst)
	}
	slices.Sort(got)
	return got
}

// A client pmcd named no user for (a remote one) is refused the process
// list and gets no per-process value, as from pmdaproc; a local user gets
// the list and its own processes' io; root gets everything.
func TestProcessAccessByClient(t *testing.T) {
	s := newProcessServer(t)
	for from, ids := range map[int32][2]string{5: {"1000\x00", "1000\x00"}, 6: {"0\x00", "0\x00"},
		7: {"65534\x00", "65534\x00"}} {
		s.handleAttr(Header{From: from}, attrPDU(from, AttrUserID, ids[0]))
		s.handleAttr(Header{From: from}, attrPDU(from, AttrGroupID, ids[1]))
	}
	_, err := s.handleInstance(Header{From: 4}, (&InstanceReq{InDom: testDomain<<22 | 9, Inst: InstNull}).Append(nil))
	if !errors.Is(err, ErrPermission) {
		t.Errorf("a client without credentials lists the processes: %v", err)
	}
	if _, err := s.handleInstance(Header{From: 7},
		(&InstanceReq{InDom: testDomain<<22 | 9, Inst: InstNull}).Append(nil)); err != nil {
		t.Errorf("nobody may not list the processes: %v", err)
	}
	cases := []struct {
		from    int32
		pid, io []uint32
	}{{4, nil, nil}, {5, []uint32{1, 100}, []uint32{100}}, {6, []uint32{1, 100}, []uint32{1, 100}},
		{7, []uint32{1, 100}, nil}}
	for _, c := range cases {
		if got := fetchInsts(t, s, c.from, tPID); !slices.Equal(got, c.pid) {
			t.Errorf("client %d: pid of %v, want %v", c.from, got, c.pid)
		}
		if got := fetchInsts(t, s, c.from, tIO); !slices.Equal(got, c.io) {
			t.Errorf("client %d: io of %v, want %v", c.from, got, c.io)
		}
	}
}

// An instance domain's alias finds the member a twin's users name the
// short way ("100" for "000100 sh"); a name the alias does not take
// finds nothing.
func TestInstanceAlias(t *testing.T) {
	schema, err := cache.NewSchema(cache.Source{Name: "proc", Metrics: []cache.Desc{tPID},
		InDoms: []cache.InDomDesc{{ID: 9, Name: "processes",
			Alias: func(name string) (string, bool) { return "000" + name, len(name) == 3 }}}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	b.SetInDom(9, cache.NewInstances([]cache.Instance{{ID: 100, Name: "000100 sh"}}))
	part, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	front.Publish(0, part)
	s := NewServer(Config{Domain: testDomain, Front: front, Log: zerolog.Nop(), Now: time.Now}, nil, io.Discard)
	lookup := func(name string) ([]InstanceEntry, error) {
		reply, err := s.handleInstance(Header{From: 1}, (&InstanceReq{InDom: testDomain<<22 | 9, Inst: InstNull,
			Name: name}).Append(nil))
		if err != nil {
			return nil, err
		}
		_, entries, err := DecodeInstance(reply)
		return entries, err
	}
	if got, err := lookup("100"); err != nil || len(got) != 1 || got[0].Inst != 100 {
		t.Errorf("100: %v %v", got, err)
	}
	if got, err := lookup("000100"); err != nil || len(got) != 1 || got[0].Inst != 100 {
		t.Errorf("000100: %v %v", got, err)
	}
	if _, err := lookup("10"); !errors.Is(err, ErrInst) {
		t.Errorf("10: %v, want PM_ERR_INST", err)
	}
}
