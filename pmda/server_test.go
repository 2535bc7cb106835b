package pmda

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

const testDomain = 396

var (
	tU32    = cache.Desc{Name: "t.u32", ID: cache.NewMetricID(0, 1), Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}
	tLoad   = cache.Desc{Name: "t.load", ID: cache.NewMetricID(0, 2), Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: 2}
	tCount  = cache.Desc{Name: "t.count", ID: cache.NewMetricID(1, 3), Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: 2}
	tStr    = cache.Desc{Name: "t.str", ID: cache.NewMetricID(1, 4), Type: cache.TypeString, Sem: cache.SemDiscrete, InDom: cache.InDomNone}
	tStored = cache.Desc{Name: "t.stored", ID: cache.NewMetricID(1, 5), Type: cache.TypeI32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}
)

func wirePMID(d cache.Desc) uint32 { return testDomain<<22 | uint32(d.ID) }

const wireLoadInDom = testDomain<<22 | 2

type testTexts struct{}

func (testTexts) MetricText(name string, long bool) (string, bool) {
	if name == "t.u32" {
		return map[bool]string{false: "a number", true: "a number, at length"}[long], true
	}
	return "", false
}

func (testTexts) InDomText(id cache.InDomID, long bool) (string, bool) {
	return "load averages", id == 2
}

// testStorer accepts non-negative values of t.stored and records them.
type testStorer struct{ stored []cache.PMStoreRequest }

func (s *testStorer) PMStore(reqs []cache.PMStoreRequest) error {
	for _, q := range reqs {
		if q.ID != tStored.ID {
			return cache.ErrReadOnly
		}
		if int32(q.Value.Bits) < 0 {
			return cache.ErrNegative
		}
	}
	s.stored = append(s.stored, reqs...)
	return nil
}

// newTestStore publishes one part with every kind of value.
func newTestStore(t testing.TB) *cache.Front {
	t.Helper()
	schema, err := cache.NewSchema(cache.Source{
		Name:    "test",
		Metrics: []cache.Desc{tU32, tLoad, tCount, tStr, tStored},
		InDoms: []cache.InDomDesc{{ID: 2, Name: "load", NameLabel: "window",
			Labels: []cache.Label{cache.StringLabel("indom_name", "per window")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	st := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	b.SetU64(tU32.ID, cache.InstNone, 7)
	b.SetInDom(2, cache.NewInstances([]cache.Instance{
		{ID: 1, Name: "1 minute", Labels: []cache.Label{{Name: "zeta", Value: "true"}}},
		{ID: 5, Name: "5 minute", Labels: []cache.Label{{Name: "window", Value: `"shadowed"`}}},
		{ID: 15, Name: "15 minute"}}))
	for _, inst := range []uint32{1, 5, 15} {
		b.SetDouble(tLoad.ID, inst, float64(inst)/10)
		b.SetU64(tCount.ID, inst, uint64(inst)*1000)
	}
	b.SetString(tStr.ID, cache.InstNone, "hullo")
	part, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	st.Publish(0, part)
	return st
}

// pmcdSide plays pmcd over pipes against a real Server.
type pmcdSide struct {
	t     *testing.T
	toSrv *io.PipeWriter
	fromS *io.PipeReader
	done  chan error
}

func startServer(t *testing.T, storer cache.PMStorer) *pmcdSide {
	return startServerWith(t, func(cfg *Config) { cfg.PMStore = storer })
}

// startServerWith starts a server on the test store with the test's
// configuration, changed by set.
func startServerWith(t *testing.T, set func(*Config)) *pmcdSide {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg := Config{Name: "hostcache", Domain: testDomain, Front: newTestStore(t),
		Texts: testTexts{}, Log: testLog(t), MaxLen: 4096, Trace: true}
	set(&cfg)
	srv := NewServer(cfg, inR, outW)
	p := &pmcdSide{t: t, toSrv: inW, fromS: outR, done: make(chan error, 1)}
	go func() {
		err := srv.Handshake(4242)
		if err == nil {
			err = srv.Serve(context.Background())
		}
		outW.Close()
		p.done <- err
	}()
	h, pdu := p.read()
	var c Creds
	if h.Type != TypeCreds || c.Decode(pdu) != nil || c.From != 4242 || c.Version != 2 {
		t.Fatalf("first PDU from the PMDA: %v %s", h.Type, words(pdu))
	}
	p.send(capture(t, "creds_pmcd"))
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *pmcdSide) send(pdu []byte) {
	p.t.Helper()
	if _, err := p.toSrv.Write(pdu); err != nil {
		p.t.Fatal(err)
	}
}

func (p *pmcdSide) read() (Header, []byte) {
	p.t.Helper()
	h, pdu, err := ReadPDU(p.fromS, nil, 1<<20)
	if err != nil {
		p.t.Fatalf("reading reply: %v", err)
	}
	return h, pdu
}

// roundTrip sends a request and returns the reply.
func (p *pmcdSide) roundTrip(pdu []byte) (Header, []byte) {
	p.t.Helper()
	p.send(pdu)
	return p.read()
}

func (p *pmcdSide) expectError(pdu []byte, want Errno) {
	p.t.Helper()
	h, reply := p.roundTrip(pdu)
	var e ErrorPDU
	if h.Type != TypeError || e.Decode(reply) != nil || e.Code != want {
		p.t.Errorf("reply %v %s, want ERROR %v", h.Type, words(reply), want)
	}
}

func withFrom(pdu []byte, from int32) []byte { return patch(pdu, 8, uint32(from)) }

func TestServerFetch(t *testing.T) {
	p := startServer(t, nil)
	p.send(capture(t, "profile_default"))
	req := (&Fetch{PMIDs: []uint32{wirePMID(tCount), wirePMID(tU32), testDomain<<22 | 999, wirePMID(tStr), wirePMID(tLoad)}}).Append(nil)
	h, reply := p.roundTrip(req)
	var res Result
	if h.Type != TypeResult || res.Decode(reply) != nil {
		t.Fatalf("fetch reply %v %s", h.Type, words(reply))
	}
	if res.Flags != 0 || len(res.Sets) != 5 {
		t.Fatalf("flags %d sets %d", res.Flags, len(res.Sets))
	}
	if s := res.Sets[0]; s.PMID != wirePMID(tCount) || s.NumVal != 3 || s.Values[2].Inst != 15 {
		t.Errorf("counter set %+v", s)
	}
	if s := res.Sets[1]; s.ValFmt != valfmtInsitu || s.Values[0].Word != 7 {
		t.Errorf("u32 set %+v", s)
	}
	if s := res.Sets[2]; s.NumVal != int32(ErrPMID) {
		t.Errorf("unknown pmid numval %d", s.NumVal)
	}
	if s := res.Sets[3]; string(s.Values[0].Payload) != "hullo\x00" {
		t.Errorf("string set %+v", s)
	}

	// A profile selecting one load instance applies to the next fetch.
	prof := (&Profile{ExcludeAll: false, InDoms: []ProfileInDom{{InDom: wireLoadInDom, Exclude: true, Insts: []uint32{5}}}}).Append(nil)
	p.send(prof)
	_, reply = p.roundTrip(req)
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 1 || res.Sets[0].Values[0].Inst != 5 || res.Sets[4].NumVal != 1 {
		t.Errorf("profiled fetch %s", words(reply))
	}
	// Another client's context keeps the default; client 0 leaving drops its profile.
	_, reply = p.roundTrip(withFrom(req, 1))
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 1 {
		t.Errorf("client 1 without a profile uses the last one received: %s", words(reply))
	}
	p.send(withFrom(capture(t, "profile_default"), 1))
	_, reply = p.roundTrip(withFrom(req, 1))
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 3 {
		t.Errorf("client 1 default profile: %s", words(reply))
	}
	_, reply = p.roundTrip(req)
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 1 {
		t.Errorf("client 0 keeps its own profile: %s", words(reply))
	}
	p.send(capture(t, "notconn")) // client 0 went away: no reply
	p.send(withFrom(capture(t, "notconn"), 1))
	_, reply = p.roundTrip(req)
	if res.Decode(reply) != nil || res.Sets[0].NumVal != 3 {
		t.Errorf("after NOTCONN the default applies: %s", words(reply))
	}
}

func TestServerMetadata(t *testing.T) {
	p := startServer(t, nil)
	h, reply := p.roundTrip((&DescReq{PMID: wirePMID(tCount)}).Append(nil))
	var d Desc
	if h.Type != TypeDesc || d.Decode(reply) != nil || d.InDom != wireLoadInDom || d.Sem != 1 || d.Units != uint32(cache.UnitsCount) {
		t.Errorf("desc %s", words(reply))
	}
	p.expectError((&DescReq{PMID: 1<<22 | 1}).Append(nil), ErrPMID) // another domain

	_, reply = p.roundTrip((&InstanceReq{InDom: wireLoadInDom, Inst: InstNull}).Append(nil))
	if _, all, err := DecodeInstance(reply); err != nil || len(all) != 3 || all[1].Name != "5 minute" {
		t.Errorf("all instances %v %v", all, err)
	}
	_, reply = p.roundTrip((&InstanceReq{InDom: wireLoadInDom, Inst: 15}).Append(nil))
	if _, one, err := DecodeInstance(reply); err != nil || len(one) != 1 || one[0].Name != "15 minute" {
		t.Errorf("instance 15: %v %v", one, err)
	}
	_, reply = p.roundTrip((&InstanceReq{InDom: wireLoadInDom, Inst: InstNull, Name: "5"}).Append(nil))
	if _, one, err := DecodeInstance(reply); err != nil || one[0].Inst != 5 {
		t.Errorf("name \"5\" (first word): %v %v", one, err)
	}
	p.expectError((&InstanceReq{InDom: wireLoadInDom, Inst: 2}).Append(nil), ErrInst)
	p.expectError((&InstanceReq{InDom: wireLoadInDom, Inst: InstNull, Name: "nosuch"}).Append(nil), ErrInst)
	p.expectError((&InstanceReq{InDom: testDomain<<22 | 77, Inst: InstNull}).Append(nil), ErrInDom)

	_, reply = p.roundTrip((&TextReq{Ident: wirePMID(tU32), Type: TextPMID | TextHelp}).Append(nil))
	if _, text, err := DecodeText(reply); err != nil || text != "a number, at length" {
		t.Errorf("help text %q %v", text, err)
	}
	_, reply = p.roundTrip((&TextReq{Ident: wireLoadInDom, Type: TextInDom | TextOneLine}).Append(nil))
	if _, text, err := DecodeText(reply); err != nil || text != "load averages" {
		t.Errorf("indom text %q %v", text, err)
	}
	p.expectError((&TextReq{Ident: wirePMID(tStr), Type: TextPMID | TextOneLine}).Append(nil), ErrText)

	h, reply = p.roundTrip((&LabelReq{Ident: testDomain, Type: LabelDomain}).Append(nil))
	if h.Type != TypeLabel || !containsBytes(reply, `{"agent":"hostcache"}`) {
		t.Errorf("domain label %v %q", h.Type, reply)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: wireLoadInDom, Type: LabelInDom}).Append(nil))
	if !containsBytes(reply, `{"collector":"test","indom_name":"per window"}`) {
		t.Errorf("indom labels %q", reply)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: wirePMID(tCount), Type: LabelItem}).Append(nil))
	if !containsBytes(reply, `{"collector":"test"}`) {
		t.Errorf("item labels %q", reply)
	}
	_, reply = p.roundTrip((&LabelReq{Ident: wirePMID(tCount), Type: LabelCluster}).Append(nil))
	if len(reply) != 28 {
		t.Errorf("cluster labels (none expected) %q", reply)
	}
	h, reply = p.roundTrip((&LabelReq{Ident: wireLoadInDom, Type: LabelInstances}).Append(nil))
	for _, want := range []string{`{"window":"1 minute","zeta":true}`, `{"window":"5 minute"}`, `{"window":"15 minute"}`} {
		if h.Type != TypeLabel || !containsBytes(reply, want) {
			t.Errorf("instance labels: no %s in %q", want, reply)
		}
	}
	// The identifying label is intrinsic, a collector's label optional.
	if got := labelFlags(reply); !slices.Equal(got, []byte{0x20, 0xa0, 0x20, 0x20}) {
		t.Errorf("instance label flags %#x", got)
	}
	p.expectError((&LabelReq{Ident: 0, Type: 0x40}).Append(nil), ErrType)
	p.expectError(capture(t, "pmns_ids"), ErrPMID)
}

// labelFlags lists the flags of every label in a LABEL reply, set by set.
func labelFlags(reply []byte) []byte {
	var flags []byte
	nsets := int(binary.BigEndian.Uint32(reply[24:]))
	off := 28
	for range nsets {
		n := int(binary.BigEndian.Uint32(reply[off+4:]))
		off += 16
		for range n {
			flags = append(flags, reply[off+3])
			off += 8
		}
	}
	return flags
}

func containsBytes(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return true
		}
	}
	return false
}

func storePDU(t testing.TB, d cache.Desc, word uint32) []byte {
	pdu := capture(t, "store_int")
	return patch(patch(pdu, 24, wirePMID(d)), 40, word)
}

func TestServerStore(t *testing.T) {
	storer := &testStorer{}
	p := startServer(t, storer)
	p.expectError(storePDU(t, tStored, 250), 0)
	p.expectError(storePDU(t, tStored, 0xfffffffb), ErrSign) // -5
	p.expectError(storePDU(t, tU32, 1), ErrPermission)
	p.expectError(storePDU(t, tCount, 1), ErrConv) // U64 sent INSITU
	if len(storer.stored) != 1 || int32(storer.stored[0].Value.Bits) != 250 {
		t.Errorf("stored %+v, want only 250", storer.stored)
	}
}

// TestServerKeepsServing sends bad input of every kind a pmcd could frame
// and checks each gets one ERROR (or nothing, where no reply is due) and
// that the next good request is still answered in step.
func TestServerKeepsServing(t *testing.T) {
	p := startServer(t, nil)
	good := (&DescReq{PMID: wirePMID(tU32)}).Append(nil)
	fetch := capture(t, "fetch_simple")
	p.expectError(patch(fetch[:len(fetch)-4], 0, uint32(len(fetch)-4)), ErrIPC) // length not matching numpmid
	p.expectError(patch(fetch, 24, 0x7fffffff), ErrIPC)                         // absurd numpmid
	p.expectError(patch(capture(t, "instance_req_name"), 28, 99), ErrIPC)       // bad name length
	p.send([]byte{0, 0, 0, 12, 0, 0, 0x70, 0x99, 0, 0, 0, 0})                   // not a request: no reply due
	big := make([]byte, 8192)                                                   // above MaxLen: skipped whole, refused
	copy(big, patch(patch(fetch, 0, 8192), 4, uint32(TypeFetch)))
	p.expectError(big, ErrIPC)
	p.send(capture(t, "attr_pid"))                                        // no reply due
	p.send(patch(capture(t, "profile_default"), 8, 1))                    // no reply due
	p.send([]byte{0, 0, 0, 16, 0, 0, 0x70, 0x02, 0, 0, 0, 0, 0, 0, 0, 1}) // bad PROFILE: ignored
	h, _ := p.roundTrip(good)
	if h.Type != TypeDesc {
		t.Fatalf("after bad input got %v, want DESC", h.Type)
	}
	// A header claiming fewer than 12 bytes cannot be skipped: clean close.
	p.send([]byte{0, 0, 0, 4, 0, 0, 0x70, 0x03, 0, 0, 0, 0})
	if _, _, err := ReadPDU(p.fromS, nil, 1<<20); err != io.EOF {
		t.Errorf("after a short header: %v, want EOF", err)
	}
	if err := <-p.done; err == nil || errors.Is(err, ErrPeerClosed) {
		t.Errorf("Serve returned %v, want a framing error", err)
	}
}

func TestServerExitsOnEOF(t *testing.T) {
	p := startServer(t, nil)
	p.toSrv.Close()
	select {
	case err := <-p.done:
		if !errors.Is(err, ErrPeerClosed) {
			t.Errorf("Serve returned %v, want ErrPeerClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return on EOF")
	}
}

// testLog sends the server's log to the test's log (shown on failure).
func testLog(t *testing.T) zerolog.Logger {
	return zerolog.New(zerolog.TestWriter{T: t}).Level(zerolog.DebugLevel)
}

// A metric kept for its descriptor only (a stand-in's placeholder) answers
// PM_ERR_APPVERSION as its numval, as pmdalinux answers swap.in, while the
// other metrics of the same fetch keep their values.
func TestServerFetchUnsupported(t *testing.T) {
	unsup := cache.Desc{Name: "t.unsupported", ID: cache.NewMetricID(2, 1), Type: cache.TypeU32,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone, Unsupported: true}
	schema, err := cache.NewSchema(cache.Source{Name: "test", Metrics: []cache.Desc{tU32, unsup}})
	if err != nil {
		t.Fatal(err)
	}
	front := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	b.SetU64(tU32.ID, cache.InstNone, 7)
	part, err := b.Part()
	if err != nil {
		t.Fatal(err)
	}
	front.Publish(0, part)
	p := startServerWith(t, func(cfg *Config) { cfg.Front = front })
	h, reply := p.roundTrip((&Fetch{PMIDs: []uint32{wirePMID(unsup), wirePMID(tU32)}}).Append(nil))
	var res Result
	if h.Type != TypeResult || res.Decode(reply) != nil || len(res.Sets) != 2 {
		t.Fatalf("fetch reply %v %s", h.Type, words(reply))
	}
	if s := res.Sets[0]; s.NumVal != -12350 {
		t.Errorf("unsupported metric's numval %d, want PM_ERR_APPVERSION (-12350)", s.NumVal)
	}
	if s := res.Sets[1]; s.NumVal != 1 || s.Values[0].Word != 7 {
		t.Errorf("the metric beside it: %+v", s)
	}
	// Its descriptor still answers: clients look the name up before they fetch.
	h, reply = p.roundTrip((&DescReq{PMID: wirePMID(unsup)}).Append(nil))
	var d Desc
	if h.Type != TypeDesc || d.Decode(reply) != nil || d.PMID != wirePMID(unsup) {
		t.Errorf("desc of the unsupported metric: %v %s", h.Type, words(reply))
	}
}
