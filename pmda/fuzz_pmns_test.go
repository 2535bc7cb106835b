package pmda

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/rs/zerolog"
)

// FuzzPMNS runs the namespace decoders and the server's answers on
// arbitrary bytes: no panic; whatever decodes survives a round trip; every
// answer is a refusal or a whole reply of the type pmcd reads, within MaxLen.
func FuzzPMNS(f *testing.F) {
	for _, files := range pmnsCaptures() {
		for _, file := range files {
			f.Add(capture(f, file))
		}
	}
	f.Add((&PMNSNames{Names: []string{"t.dyn.app.requests"}}).Append(nil))
	f.Add((&PMNSChild{Subtype: ChildWithStatus, Name: "t.dyn"}).Append(nil))
	f.Add((&PMNSTraverse{Name: "t.dyn"}).Append(nil))
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) < HeaderLen {
			return
		}
		pmnsRoundTrips(t, pdu)
		s := NewServer(Config{Domain: testDomain, Namespace: newTestNamespace(), Log: zerolog.Nop(), MaxLen: 1 << 12}, nil, io.Discard)
		for _, typ := range []Type{TypePMNSIDs, TypePMNSNames, TypePMNSChild, TypePMNSTraverse} {
			reply, err := s.handlePMNS(Header{Type: typ}, pdu)
			checkPMNSAnswer(t, typ, reply, err)
		}
	})
}

// pmnsRoundTrips decodes pdu as each namespace PDU and, where that works,
// encodes and decodes again to the same value.
func pmnsRoundTrips(t *testing.T, pdu []byte) {
	type codec interface {
		Decode([]byte) error
		Append([]byte) []byte
	}
	mk := []func() codec{
		func() codec { return new(PMNSIDs) },
		func() codec { return new(PMNSNames) },
		func() codec { return new(PMNSChild) },
		func() codec { return new(PMNSTraverse) },
	}
	for _, newCodec := range mk {
		first, again := newCodec(), newCodec()
		if first.Decode(pdu) != nil {
			continue
		}
		if err := again.Decode(first.Append(nil)); err != nil || !reflect.DeepEqual(first, again) {
			t.Fatalf("%T %+v came back %+v (%v)", first, first, again, err)
		}
	}
}

func checkPMNSAnswer(t *testing.T, typ Type, reply []byte, err error) {
	if err != nil {
		var code Errno
		if reply != nil || !(errors.As(err, &code) || errors.Is(err, ErrMalformed)) {
			t.Fatalf("%v: reply %x with error %v", typ, reply, err)
		}
		return
	}
	if len(reply) > 1<<12 {
		t.Fatalf("%v: reply of %d bytes", typ, len(reply))
	}
	h, _ := DecodeHeader(reply)
	if typ == TypePMNSNames {
		var ids PMNSIDs
		if h.Type != TypePMNSIDs || ids.Decode(reply) != nil || len(ids.PMIDs) != 1 {
			t.Fatalf("lookup answered %x", reply)
		}
		return
	}
	var names PMNSNames
	if h.Type != TypePMNSNames || names.Decode(reply) != nil {
		t.Fatalf("%v answered %x", typ, reply)
	}
}
