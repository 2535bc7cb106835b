package pmda

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// addCaptures seeds a fuzzer with every real pmcd capture in testdata/pdu.
func addCaptures(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "pdu", "*.txt"))
	if len(files) == 0 {
		f.Fatal("no PDU captures to seed from")
	}
	for _, file := range files {
		f.Add(capture(f, strings.TrimSuffix(filepath.Base(file), ".txt")))
	}
}

// FuzzDecode runs every decoder on arbitrary bytes: errors are fine, panics
// and reads past the end are not.
func FuzzDecode(f *testing.F) {
	addCaptures(f)
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) < HeaderLen {
			return
		}
		(&Creds{}).Decode(pdu)
		(&ErrorPDU{}).Decode(pdu)
		(&Profile{}).Decode(pdu)
		(&Fetch{}).Decode(pdu)
		(&Result{}).Decode(pdu)
		(&DescReq{}).Decode(pdu)
		(&Desc{}).Decode(pdu)
		(&InstanceReq{}).Decode(pdu)
		(&TextReq{}).Decode(pdu)
		(&LabelReq{}).Decode(pdu)
		DecodeInstance(pdu)
		DecodeText(pdu)
		var p Profile
		if p.Decode(pdu) == nil {
			p.Includes(1, 2)
		}
	})
}

// FuzzStore drives the store path (decode, type checks, storer) with
// arbitrary RESULT bodies from a pmcd.
func FuzzStore(f *testing.F) {
	f.Add(capture(f, "store_int"))
	f.Add(capture(f, "store_string"))
	f.Add(storePDU(f, tStored, 5))
	f.Fuzz(func(t *testing.T, pdu []byte) {
		if len(pdu) < HeaderLen {
			return
		}
		s := NewServer(Config{Domain: testDomain, Front: newTestStore(t), PMStore: &testStorer{}, Log: zerolog.Nop()}, nil, io.Discard)
		reply, err := s.handleStore(Header{}, pdu)
		if err == nil && len(reply) != 16 {
			t.Fatalf("store answered %x", reply)
		}
	})
}

// FuzzServe feeds an arbitrary byte stream to a server after its handshake:
// it must never panic, and everything it writes must be whole PDUs.
func FuzzServe(f *testing.F) {
	addCaptures(f)
	f.Fuzz(func(t *testing.T, stream []byte) {
		var out bytes.Buffer
		in := io.MultiReader(bytes.NewReader(capture(t, "creds_pmcd")), bytes.NewReader(stream))
		s := NewServer(Config{Domain: testDomain, Front: newTestStore(t), Texts: testTexts{},
			PMStore: &testStorer{}, Log: zerolog.Nop(), MaxLen: 1 << 16}, in, &out)
		if err := s.Handshake(1); err != nil {
			t.Fatal(err)
		}
		s.Serve(context.Background())
		r := bytes.NewReader(out.Bytes())
		for r.Len() > 0 {
			if _, _, err := ReadPDU(r, nil, 1<<24); err != nil {
				t.Fatalf("output is not whole PDUs: %v", err)
			}
		}
	})
}
