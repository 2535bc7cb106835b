package pmda

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestPMNSNamesMatchCaptures decodes the name lists libpcp sent and
// encodes them again byte for byte, padding included.
func TestPMNSNamesMatchCaptures(t *testing.T) {
	cases := []struct {
		capture string
		names   []string
		status  []int32
	}{
		{"pmns_names_req", []string{"sample.secret.bar"}, nil},
		{"pmns_names_req_unpadded", []string{"sample.secret.nosuch"}, nil},
		{"pmns_child_names", []string{"foo", "bar"}, nil},
		{"pmns_child_status", []string{"foo", "bar"}, []int32{StatusNonLeaf, StatusLeaf}},
		{"pmns_names_empty", nil, nil},
	}
	for _, c := range cases {
		var p PMNSNames
		if err := p.Decode(capture(t, c.capture)); err != nil {
			t.Errorf("%s: %v", c.capture, err)
			continue
		}
		if !slices.Equal(p.Names, c.names) || !slices.Equal(p.Status, c.status) || (p.Status == nil) != (c.status == nil) {
			t.Errorf("%s decoded %q %v, want %q %v", c.capture, p.Names, p.Status, c.names, c.status)
		}
		sameBytes(t, c.capture, p.Append(nil), capture(t, c.capture))
	}
}

func TestPMNSTraversalMatchesCapture(t *testing.T) {
	pdu := capture(t, "pmns_traverse_names")
	var p PMNSNames
	if err := p.Decode(pdu); err != nil {
		t.Fatal(err)
	}
	if len(p.Names) != 8 || p.Names[0] != "sample.secret.foo.bar.max.redirect" ||
		p.Names[7] != "sample.secret.foo.bar.grunt.snort.huff.puff.seven" || p.Status != nil {
		t.Errorf("decoded %q %v", p.Names, p.Status)
	}
	sameBytes(t, "traversal", p.Append(nil), pdu)
}

func TestPMNSIDsMatchCaptures(t *testing.T) {
	for name, pmid := range map[string]uint32{"pmns_ids": 0x3f402409, "pmns_ids_reply": 0x074003e8} {
		var p PMNSIDs
		if err := p.Decode(capture(t, name)); err != nil || p.Status != 0 || !slices.Equal(p.PMIDs, []uint32{pmid}) {
			t.Errorf("%s decoded %+v %v", name, p, err)
		}
		sameBytes(t, name, p.Append(nil), capture(t, name))
	}
}

func TestPMNSNameRequestsMatchCaptures(t *testing.T) {
	cases := []struct {
		capture string
		subtype int32
		name    string
		child   bool
	}{
		{"pmns_child_req", ChildNames, "sample.secret", true},
		{"pmns_child_req_status", ChildWithStatus, "sample.secret", true},
		{"pmns_traverse_req", 0, "sample.secret.foo", false},
	}
	for _, c := range cases {
		pdu := capture(t, c.capture)
		var got []byte
		if c.child {
			var q PMNSChild
			if err := q.Decode(pdu); err != nil || q.Subtype != c.subtype || q.Name != c.name {
				t.Errorf("%s decoded %+v %v", c.capture, q, err)
			}
			got = q.Append(nil)
		} else {
			var q PMNSTraverse
			if err := q.Decode(pdu); err != nil || q.Subtype != c.subtype || q.Name != c.name {
				t.Errorf("%s decoded %+v %v", c.capture, q, err)
			}
			got = q.Append(nil)
		}
		sameBytes(t, c.capture, got, pdu)
	}
}

// TestPMNSRoundTrips covers every padding (name lengths 0 to 8), a status
// list, and several PMIDs.
func TestPMNSRoundTrips(t *testing.T) {
	var names []string
	for n := 0; n <= 8; n++ {
		names = append(names, strings.Repeat("x", n))
	}
	status := []int32{0, 1, 0, 1, 0, 1, 0, 1, 0}
	for _, in := range []PMNSNames{{Names: names}, {Names: names, Status: status}, {}} {
		var out PMNSNames
		if err := out.Decode(in.Append(nil)); err != nil || !slices.Equal(out.Names, in.Names) || !slices.Equal(out.Status, in.Status) {
			t.Errorf("names %q %v came back %q %v (%v)", in.Names, in.Status, out.Names, out.Status, err)
		}
	}
	ids := PMNSIDs{Status: -1, PMIDs: []uint32{1, 0xffffffff, 0x63000005}}
	var back PMNSIDs
	if err := back.Decode(ids.Append(nil)); err != nil || back.Status != -1 || !slices.Equal(back.PMIDs, ids.PMIDs) {
		t.Errorf("ids came back %+v (%v)", back, err)
	}
	for _, name := range names {
		var c PMNSChild
		var tr PMNSTraverse
		if err := c.Decode((&PMNSChild{Subtype: 1, Name: name}).Append(nil)); err != nil || c.Name != name || c.Subtype != 1 {
			t.Errorf("child %q came back %+v (%v)", name, c, err)
		}
		if err := tr.Decode((&PMNSTraverse{Name: name}).Append(nil)); err != nil || tr.Name != name {
			t.Errorf("traverse %q came back %+v (%v)", name, tr, err)
		}
	}
}

// pmnsDecoders decode each kind of namespace PDU.
func pmnsDecoders() map[string]func([]byte) error {
	return map[string]func([]byte) error{
		"ids":      new(PMNSIDs).Decode,
		"names":    new(PMNSNames).Decode,
		"child":    new(PMNSChild).Decode,
		"traverse": new(PMNSTraverse).Decode,
	}
}

// pmnsCaptures lists the captures of each kind.
func pmnsCaptures() map[string][]string {
	return map[string][]string{
		"ids":      {"pmns_ids", "pmns_ids_reply"},
		"names":    {"pmns_names_req", "pmns_names_req_unpadded", "pmns_child_names", "pmns_child_status", "pmns_traverse_names", "pmns_names_empty"},
		"child":    {"pmns_child_req", "pmns_child_req_status"},
		"traverse": {"pmns_traverse_req"},
	}
}

// TestPMNSDecodersRejectTruncation cuts every capture at every length
// past the header and adds a trailing word: each must be refused.
func TestPMNSDecodersRejectTruncation(t *testing.T) {
	decoders := pmnsDecoders()
	for kind, files := range pmnsCaptures() {
		decode := decoders[kind]
		for _, file := range files {
			pdu := capture(t, file)
			for n := HeaderLen; n < len(pdu); n++ {
				cut := patch(pdu[:n:n], 0, uint32(n))
				if err := decode(cut); !errors.Is(err, ErrMalformed) {
					t.Errorf("%s cut at %d: err %v", file, n, err)
				}
			}
			long := patch(append(append([]byte{}, pdu...), 0, 0, 0, 0), 0, uint32(len(pdu)+4))
			if err := decode(long); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s with a trailing word: err %v", file, err)
			}
		}
	}
}

func TestPMNSDecodersRejectMalformed(t *testing.T) {
	names := capture(t, "pmns_names_req")
	status := capture(t, "pmns_child_status")
	child := capture(t, "pmns_child_req")
	tooLong := (&PMNSChild{Name: strings.Repeat("a", maxNameLen+1)}).Append(nil)
	cases := map[string]struct {
		kind string
		pdu  []byte
	}{
		"numids 0":            {"ids", patch(capture(t, "pmns_ids"), 16, 0)},
		"numids past end":     {"ids", patch(capture(t, "pmns_ids"), 16, 2)},
		"numids negative":     {"ids", patch(capture(t, "pmns_ids"), 16, 0xffffffff)},
		"numnames past end":   {"names", patch(names, 20, 2)},
		"numnames huge":       {"names", patch(names, 20, 0x7fffffff)},
		"numnames negative":   {"names", patch(names, 20, 0xffffcfbb)},
		"numstatus not n":     {"names", patch(status, 16, 1)},
		"numstatus unwanted":  {"names", patch(names, 16, 1)},
		"nstrbytes short":     {"names", patch(names, 12, 0x11)},
		"nstrbytes huge":      {"names", patch(names, 12, 0x7fffffff)},
		"nstrbytes negative":  {"names", patch(names, 12, 0xffffffff)},
		"namelen past end":    {"names", patch(names, 24, 0x15)},
		"namelen negative":    {"names", patch(names, 24, 0xfffffffc)},
		"NUL in name":         {"names", patch(names, 28, 0x73610070)},
		"child namelen":       {"child", patch(child, 16, 0x7fffffff)},
		"child namelen neg":   {"child", patch(child, 16, 0x80000000)},
		"child name past end": {"child", patch(child, 16, 17)},
		"child NUL":           {"child", patch(child, 20, 0)},
		"child too long":      {"child", tooLong},
		"traverse too long":   {"traverse", patch(tooLong, 4, uint32(TypePMNSTraverse))},
	}
	decoders := pmnsDecoders()
	for name, c := range cases {
		if err := decoders[c.kind](c.pdu); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err %v, want ErrMalformed", name, err)
		}
	}
}
