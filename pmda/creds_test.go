package pmda

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func attrPDU(from int32, key uint32, value string) []byte {
	return (&Attr{From: from, Key: key, Value: []byte(value)}).Append(nil)
}

// ATTR decodes as pmcd sends it: unpadded, the value NUL-terminated.
func TestAttrDecode(t *testing.T) {
	var a Attr
	if err := a.Decode(capture(t, "attr_pid")); err != nil {
		t.Fatal(err)
	}
	if a.From != 0 || a.Key != AttrProcessID || a.Text() != "14583" {
		t.Errorf("decoded %+v (%q)", a, a.Text())
	}
	uid := attrPDU(7, AttrUserID, "998\x00")
	if len(uid) != 20 {
		t.Errorf("USERID \"998\\0\" is %d bytes, want 20 (not padded)", len(uid))
	}
	if err := a.Decode(uid); err != nil || a.From != 7 || a.Key != AttrUserID {
		t.Fatalf("decoded %+v, %v", a, err)
	}
	if id, err := a.ID(); err != nil || id != 998 {
		t.Errorf("ID() = %d, %v", id, err)
	}
}

func TestAttrDecodeRefusesMalformed(t *testing.T) {
	for name, pdu := range map[string][]byte{
		"no key":         attrPDU(0, AttrUserID, "")[:HeaderLen+2],
		"value too long": attrPDU(0, AttrUserID, string(make([]byte, maxAttrValue))),
		"short header":   {0, 0, 0, 8},
	} {
		var a Attr
		if err := a.Decode(pdu); err == nil {
			t.Errorf("%s: accepted as %+v", name, a)
		}
	}
	for _, v := range []string{"", "\x00", "-1\x00", "4294967296\x00", "12a\x00", " 1\x00"} {
		a := Attr{Key: AttrUserID, Value: []byte(v)}
		if id, err := a.ID(); err == nil {
			t.Errorf("id %q read as %d", v, id)
		}
	}
	// A value of the largest size allowed is taken.
	var a Attr
	if err := a.Decode(attrPDU(0, AttrContainer, string(make([]byte, maxAttrValue-1)))); err != nil {
		t.Errorf("a value of %d bytes: %v", maxAttrValue-1, err)
	}
}

// The table knows a client once pmcd gave both its user and group,
// forgets it on NOTCONN, and keeps at most its bound of clients, the one
// heard from least recently going first.
func TestCredTable(t *testing.T) {
	tab := newCredTable(3)
	set := func(from int32, key uint32, v string) {
		t.Helper()
		a := Attr{From: from, Key: key, Value: []byte(v + "\x00")}
		if err := tab.set(&a); err != nil {
			t.Fatal(err)
		}
	}
	set(1, AttrUserID, "0")
	if who := tab.credentials(1); who.Known {
		t.Errorf("known from its user alone: %+v", who)
	}
	set(1, AttrGroupID, "5")
	set(1, AttrProcessID, "1234") // not a credential: ignored
	if who := tab.credentials(1); who != (cache.Credentials{UID: 0, GID: 5, Known: true}) {
		t.Errorf("credentials %+v", who)
	}
	if err := tab.set(&Attr{From: 1, Key: AttrUserID, Value: []byte("x\x00")}); err == nil {
		t.Error("a user id that is not a number was taken")
	}
	if who := tab.credentials(1); who.UID != 0 || !who.Known {
		t.Errorf("a malformed attribute changed the client: %+v", who)
	}
	for from := int32(2); from <= 4; from++ {
		set(from, AttrUserID, "100")
		set(from, AttrGroupID, "100")
	}
	if len(tab.byClient) != 3 || tab.credentials(1).Known || !tab.credentials(4).Known {
		t.Errorf("after a fourth client: %d kept, 1 known %v", len(tab.byClient), tab.credentials(1).Known)
	}
	tab.drop(4)
	if tab.credentials(4).Known {
		t.Error("client 4 is still known after it went")
	}
}

// Through the stream: CREDS ask for attributes, an ATTR (malformed or
// not) gets no reply, and the store after it is the only answer.
func TestAttrGetsNoReply(t *testing.T) {
	var in bytes.Buffer
	in.Write(patch(capture(t, "creds_pmcd"), 16, 0x01020004))
	in.Write(attrPDU(2, AttrUserID, "zero\x00")) // malformed: logged
	short := patch(attrPDU(2, AttrUserID, ""), 0, HeaderLen+2)
	in.Write(short[:HeaderLen+2]) // no whole key: logged
	in.Write(attrPDU(2, AttrUserID, "0\x00"))
	in.Write(attrPDU(2, AttrGroupID, "0\x00"))
	in.Write(withFrom(storePDU(t, tStored, 9), 2))
	var out bytes.Buffer
	storer := &checkedStorer{}
	s := NewServer(Config{Domain: testDomain, Front: newTestStore(t), PMStore: storer, Log: testLog(t),
		StoreAccess: &StoreAccess{Users: []uint32{0}}}, &in, &out)
	if err := s.Handshake(1); err != nil {
		t.Fatal(err)
	}
	var creds Creds
	h, pdu, _ := ReadPDU(&out, nil, 1<<16)
	if h.Type != TypeCreds || creds.Decode(pdu) != nil || creds.Flags != FlagAuth|FlagContainer {
		t.Fatalf("our CREDS: %s", words(pdu))
	}
	if err := s.Serve(context.Background()); !errors.Is(err, ErrPeerClosed) {
		t.Fatalf("serve: %v", err)
	}
	h, pdu, err := ReadPDU(&out, nil, 1<<16)
	var e ErrorPDU
	if err != nil || h.Type != TypeError || e.Decode(pdu) != nil || e.Code != 0 || out.Len() != 0 {
		t.Errorf("replies: %v %s, then %d bytes, want one ERROR(0)", h.Type, words(pdu), out.Len())
	}
	if len(storer.stored) != 1 {
		t.Errorf("stored %+v", storer.stored)
	}
}
