package pmda

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestCredsMatchCapture(t *testing.T) {
	sameBytes(t, "creds", (&Creds{From: 0x351c, Version: 2}).Append(nil), capture(t, "creds_pmda"))
	var c Creds
	if err := c.Decode(capture(t, "creds_pmcd")); err != nil {
		t.Fatal(err)
	}
	if c.From != 0x3518 || c.Version != 2 || c.Flags != 0 {
		t.Errorf("decoded %+v", c)
	}
}

func TestProfileDecode(t *testing.T) {
	var p Profile
	if err := p.Decode(capture(t, "profile_default")); err != nil {
		t.Fatal(err)
	}
	if p.ExcludeAll || len(p.InDoms) != 0 || !p.Includes(1, 2) {
		t.Errorf("default profile decoded as %+v", p)
	}
	if err := p.Decode(capture(t, "profile_two_insts")); err != nil {
		t.Fatal(err)
	}
	const indom = 0x3d400000
	for inst, want := range map[uint32]bool{0: true, 5: true, 1: false, 99: false} {
		if got := p.Includes(indom, inst); got != want {
			t.Errorf("Includes(%d) = %v, want %v", inst, got, want)
		}
	}
	if p.IncludesAll(indom) || !p.IncludesAll(7) {
		t.Error("IncludesAll wrong")
	}
	// Decoding sorts the instance list; re-encoding keeps the length and
	// the meaning.
	var again Profile
	if err := again.Decode(p.Append(nil)); err != nil || !again.Includes(indom, 5) || again.Includes(indom, 1) {
		t.Errorf("profile does not survive a round trip: %v", err)
	}
}

func TestFetchDecode(t *testing.T) {
	var f Fetch
	if err := f.Decode(capture(t, "fetch_simple")); err != nil {
		t.Fatal(err)
	}
	want := []uint32{0x3f400000, 0x3f400001, 0x3f400402}
	if f.Ctx != 0 || len(f.PMIDs) != 3 || f.PMIDs[0] != want[0] || f.PMIDs[2] != want[2] {
		t.Errorf("decoded %+v", f)
	}
	sameBytes(t, "fetch", f.Append(nil), capture(t, "fetch_simple"))
}

// TestResultMatchesCapture encodes the simple PMDA's reply from the pmcd
// capture: INSITU sets, a multi-instance set, and a DOUBLE value block.
func TestResultMatchesCapture(t *testing.T) {
	sets := []ValueSet{
		{PMID: 0x3f400000, Type: cache.TypeU32, Values: []cache.Value{cache.U32Value(cache.InstNone, 1)}},
		{PMID: 0x3f400001, Type: cache.TypeI32, Values: []cache.Value{
			cache.I32Value(0, 1), cache.I32Value(1, 101), cache.I32Value(2, 201)}},
		{PMID: 0x3f400402, Type: cache.TypeDouble, Values: []cache.Value{cache.DoubleValue(cache.InstNone, 0)}},
	}
	sameBytes(t, "result", AppendResult(nil, 0, sets), capture(t, "result_simple"))
}

// TestResultEveryType checks the value block rules: exact vtype/vlen per
// type, blocks packed after the sets, no valfmt for numval <= 0.
func TestResultEveryType(t *testing.T) {
	sets := []ValueSet{
		{PMID: 1, Type: cache.TypeString, Values: []cache.Value{cache.StringValue(cache.InstNone, "hullo world!")}},
		{PMID: 2, Type: cache.TypeI64, Values: []cache.Value{cache.I64Value(cache.InstNone, -2)}},
		{PMID: 3, Type: cache.TypeFloat, Values: []cache.Value{cache.FloatValue(cache.InstNone, 1)}},
		{PMID: 4, NumErr: ErrPMID},
		{PMID: 5, Type: cache.TypeU64},
		{PMID: 6, Type: cache.TypeString, Values: []cache.Value{cache.StringValue(7, "")}},
	}
	pdu := AppendResult(nil, 0, sets)
	// 24 header+stamp+numpmid, 4 sets of 20, 2 of 8 = 120; blocks 20+12+8+8.
	if len(pdu) != 120+48 {
		t.Fatalf("len %d: %s", len(pdu), words(pdu))
	}
	var res Result
	if err := res.Decode(pdu); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		numval int32
		vtype  cache.Type
		vlen   int
	}{{1, cache.TypeString, 13}, {1, cache.TypeI64, 8}, {1, cache.TypeFloat, 4},
		{int32(ErrPMID), 0, 0}, {0, 0, 0}, {1, cache.TypeString, 1}}
	for i, c := range checks {
		s := res.Sets[i]
		if s.NumVal != c.numval {
			t.Errorf("set %d numval %d, want %d", i, s.NumVal, c.numval)
			continue
		}
		if c.numval == 1 && (s.ValFmt != valfmtDptr || s.Values[0].VType != c.vtype || len(s.Values[0].Payload) != c.vlen) {
			t.Errorf("set %d: %+v", i, s)
		}
	}
	if string(res.Sets[0].Values[0].Payload) != "hullo world!\x00" {
		t.Errorf("string payload %q", res.Sets[0].Values[0].Payload)
	}
}

func TestStoreDecode(t *testing.T) {
	var res Result
	if err := res.Decode(capture(t, "store_int")); err != nil {
		t.Fatal(err)
	}
	if v := res.Sets[0].Values[0]; res.Sets[0].ValFmt != valfmtInsitu || v.Word != 42 || v.Inst != cache.InstNone {
		t.Errorf("int store decoded %+v", res.Sets[0])
	}
	if err := res.Decode(capture(t, "store_string")); err != nil {
		t.Fatal(err)
	}
	v, err := storeValue(cache.TypeString, res.Sets[0].ValFmt, res.Sets[0].Values[0])
	if err != nil || v.Str != "hello" {
		t.Errorf("string store: %q, %v", v.Str, err)
	}
}

func TestDescMatchesCapture(t *testing.T) {
	var q DescReq
	if err := q.Decode(capture(t, "desc_req")); err != nil || q.PMID != 0x3f400000 {
		t.Fatalf("desc req %+v %v", q, err)
	}
	d := Desc{PMID: 0x3f400402, Type: int32(cache.TypeDouble), InDom: 0xffffffff,
		Sem: int32(cache.SemCounter), Units: uint32(cache.UnitsSec)}
	sameBytes(t, "desc", d.Append(nil), capture(t, "desc_double"))
}

func TestInstanceMatchesCapture(t *testing.T) {
	var q InstanceReq
	if err := q.Decode(capture(t, "instance_req_name")); err != nil || q.Name != "green" || q.Inst != InstNull {
		t.Fatalf("instance req %+v %v", q, err)
	}
	if err := q.Decode(capture(t, "instance_req_all")); err != nil || q.Name != "" || q.Inst != InstNull {
		t.Fatalf("instance req %+v %v", q, err)
	}
	got := AppendInstance(nil, 0x3f400000, []InstanceEntry{{0, "red"}, {1, "green"}, {2, "blue"}})
	sameBytes(t, "instance", got, capture(t, "instance_all"))
}

func TestLabelMatchesCapture(t *testing.T) {
	var q LabelReq
	if err := q.Decode(capture(t, "label_req_domain")); err != nil || q.Ident != 29 || q.Type != LabelDomain {
		t.Fatalf("label req %+v %v", q, err)
	}
	got, err := AppendLabel(nil, 29, LabelDomain, []LabelSet{{Inst: InstNull, Labels: []Label{
		{Name: "agent", Value: `"sample"`}, {Name: "role", Value: `"testing"`}}}})
	if err != nil {
		t.Fatal(err)
	}
	sameBytes(t, "label", got, capture(t, "label_domain"))
}

func TestTextRoundTrip(t *testing.T) {
	var q TextReq
	if err := q.Decode(capture(t, "text_req")); err != nil || q.Ident != 0x07400005 || q.Type != TextPMID|TextOneLine {
		t.Fatalf("text req %+v %v", q, err)
	}
	pdu := AppendText(nil, q.Ident, "Metrics with a \"saw-tooth\" trend over time")
	if len(pdu) != 64 {
		t.Errorf("text len %d, want 64 (padded, as the capture)", len(pdu))
	}
	ident, text, err := DecodeText(pdu)
	if err != nil || ident != q.Ident || text != "Metrics with a \"saw-tooth\" trend over time" {
		t.Errorf("decoded %x %q %v", ident, text, err)
	}
}

func TestErrorMatchesCapture(t *testing.T) {
	sameBytes(t, "error", (&ErrorPDU{Code: ErrPMID}).Append(nil), capture(t, "error_pmid"))
	var e ErrorPDU
	if err := e.Decode(capture(t, "notconn")); err != nil || e.Code != ErrNotConn {
		t.Errorf("notconn decoded %v %v", e.Code, err)
	}
}

// TestReadPDUInterrupted feeds a PDU one byte at a time: short reads are
// the norm on pipes and must not change what is read.
func TestReadPDUInterrupted(t *testing.T) {
	want := capture(t, "result_simple")
	h, got, err := ReadPDU(iotest.OneByteReader(bytes.NewReader(want)), nil, DefaultMaxLen)
	if err != nil || h.Type != TypeResult || !bytes.Equal(got, want) {
		t.Fatalf("%v %v", h, err)
	}
	_, _, err = ReadPDU(bytes.NewReader(want[:20]), nil, DefaultMaxLen)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated PDU: %v, want unexpected EOF", err)
	}
	_, _, err = ReadPDU(bytes.NewReader(nil), nil, DefaultMaxLen)
	if err != io.EOF {
		t.Errorf("empty stream: %v, want EOF", err)
	}
}

func TestDecodersRejectMalformed(t *testing.T) {
	fetch := capture(t, "fetch_simple")
	cases := map[string]struct {
		pdu    []byte
		decode func([]byte) error
	}{
		"fetch short":        {fetch[:len(fetch)-4], new(Fetch).Decode},
		"fetch long":         {append(append([]byte{}, fetch...), 0, 0, 0, 0), new(Fetch).Decode},
		"fetch numpmid 0":    {(&Fetch{}).Append(nil), new(Fetch).Decode},
		"fetch huge numpmid": {patch(fetch, 24, 0x7fffffff), new(Fetch).Decode},
		"fetch neg numpmid":  {patch(fetch, 24, 0xffffffff), new(Fetch).Decode},
		"desc req long":      {append(capture(t, "desc_req"), 0, 0, 0, 0), new(DescReq).Decode},
		"instance namelen":   {patch(capture(t, "instance_req_name"), 28, 0x7fffffff), new(InstanceReq).Decode},
		"profile numprof":    {patch(capture(t, "profile_two_insts"), 20, 1000), new(Profile).Decode},
		"profile numinst":    {patch(capture(t, "profile_two_insts"), 36, 1000), new(Profile).Decode},
		"store numval":       {patch(capture(t, "store_int"), 28, 1000), new(Result).Decode},
		"store bad offset":   {patch(capture(t, "store_string"), 40, 0xffff), new(Result).Decode},
		"store bad vlen":     {patch(capture(t, "store_string"), 44, 0x06ffffff), new(Result).Decode},
		"creds no version":   {patch(capture(t, "creds_pmcd"), 16, 0), new(Creds).Decode},
	}
	for name, c := range cases {
		if err := c.decode(c.pdu); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err %v, want ErrMalformed", name, err)
		}
	}
}

// patch returns a copy of pdu with the word at off replaced.
func patch(pdu []byte, off int, word uint32) []byte {
	out := append([]byte{}, pdu...)
	out[off], out[off+1], out[off+2], out[off+3] = byte(word>>24), byte(word>>16), byte(word>>8), byte(word)
	return out
}
