package pmda

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// testNamespace is a dynamic subtree rooted at root, built from its
// leaves' full names and PMIDs. The root is known even when empty.
type testNamespace struct {
	root   string
	leaves map[string]uint32
}

func newTestNamespace() testNamespace {
	return testNamespace{root: "t.dyn", leaves: map[string]uint32{
		"t.dyn.app.requests":   testDomain<<22 | 1<<10 | 1,
		"t.dyn.app.errors":     testDomain<<22 | 1<<10 | 2,
		"t.dyn.db.pool.conns":  testDomain<<22 | 2<<10 | 1,
		"t.dyn.uptime":         testDomain<<22 | 3<<10 | 1,
		"t.dyn.alias.requests": testDomain<<22 | 1<<10 | 1,
	}}
}

func (n testNamespace) PMID(name string) (uint32, bool) {
	id, ok := n.leaves[name]
	return id, ok
}

func (n testNamespace) Names(pmid uint32) ([]string, bool) {
	var out []string
	for name, id := range n.leaves {
		if id == pmid {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, len(out) > 0
}

func (n testNamespace) below(name string) []string {
	var out []string
	for leaf := range n.leaves {
		if strings.HasPrefix(leaf, name+".") {
			out = append(out, leaf)
		}
	}
	slices.Sort(out)
	return out
}

func (n testNamespace) Children(name string) ([]Child, bool) {
	if _, leaf := n.leaves[name]; leaf {
		return nil, true
	}
	below := n.below(name)
	if len(below) == 0 && name != n.root {
		return nil, false
	}
	var out []Child
	for _, full := range below {
		first, _, deeper := strings.Cut(strings.TrimPrefix(full, name+"."), ".")
		if len(out) == 0 || out[len(out)-1].Name != first {
			out = append(out, Child{Name: first, Leaf: !deeper})
		}
	}
	return out, true
}

func (n testNamespace) Traverse(name string) ([]string, bool) {
	if _, leaf := n.leaves[name]; leaf {
		return []string{name}, true
	}
	below := n.below(name)
	return below, len(below) > 0 || name == n.root
}

func startPMNSServer(t *testing.T, ns Namespace) *pmcdSide {
	return startServerWith(t, func(cfg *Config) { cfg.Namespace = ns })
}

// expectNames sends a request and checks the PMNS_NAMES reply.
func (p *pmcdSide) expectNames(pdu []byte, names []string, status []int32) {
	p.t.Helper()
	h, reply := p.roundTrip(pdu)
	var got PMNSNames
	if h.Type != TypePMNSNames || got.Decode(reply) != nil {
		p.t.Fatalf("reply %v %s, want PMNS_NAMES", h.Type, words(reply))
	}
	if !slices.Equal(got.Names, names) || !slices.Equal(got.Status, status) || (got.Status == nil) != (status == nil) {
		p.t.Errorf("got %q %v, want %q %v", got.Names, got.Status, names, status)
	}
}

func lookupPDU(names ...string) []byte { return (&PMNSNames{Names: names}).Append(nil) }

func namesOfPDU(pmids ...uint32) []byte { return (&PMNSIDs{PMIDs: pmids}).Append(nil) }

func TestPMNSLookupByName(t *testing.T) {
	p := startPMNSServer(t, newTestNamespace())
	h, reply := p.roundTrip(lookupPDU("t.dyn.db.pool.conns"))
	var ids PMNSIDs
	if h.Type != TypePMNSIDs || ids.Decode(reply) != nil || ids.Status != 0 ||
		!slices.Equal(ids.PMIDs, []uint32{testDomain<<22 | 2<<10 | 1}) {
		t.Errorf("reply %v %s", h.Type, words(reply))
	}
	p.expectError(lookupPDU("t.dyn.db"), ErrName) // a node is not a metric
	p.expectError(lookupPDU("t.dyn.nosuch"), ErrName)
	p.expectError(lookupPDU("t.dyn.app.requests", "t.dyn.uptime"), ErrIPC) // pmcd asks one at a time
	p.expectError(lookupPDU(), ErrIPC)
}

func TestPMNSNamesOfPMID(t *testing.T) {
	p := startPMNSServer(t, newTestNamespace())
	p.expectNames(namesOfPDU(testDomain<<22|1<<10|1), []string{"t.dyn.alias.requests", "t.dyn.app.requests"}, nil)
	p.expectNames(namesOfPDU(testDomain<<22|3<<10|1), []string{"t.dyn.uptime"}, nil)
	p.expectError(namesOfPDU(testDomain<<22|9<<10|9), ErrPMID)
	p.expectError(namesOfPDU(1, 2), ErrIPC)
}

func TestPMNSChildren(t *testing.T) {
	p := startPMNSServer(t, newTestNamespace())
	ask := func(subtype int32, name string) []byte { return (&PMNSChild{Subtype: subtype, Name: name}).Append(nil) }
	p.expectNames(ask(ChildWithStatus, "t.dyn"), []string{"alias", "app", "db", "uptime"},
		[]int32{StatusNonLeaf, StatusNonLeaf, StatusNonLeaf, StatusLeaf})
	p.expectNames(ask(ChildNames, "t.dyn"), []string{"alias", "app", "db", "uptime"}, nil)
	p.expectNames(ask(ChildWithStatus, "t.dyn.db"), []string{"pool"}, []int32{StatusNonLeaf})
	p.expectNames(ask(ChildWithStatus, "t.dyn.app"), []string{"errors", "requests"}, []int32{StatusLeaf, StatusLeaf})
	p.expectNames(ask(ChildWithStatus, "t.dyn.uptime"), nil, nil) // a leaf has no children; no names, no status
	p.expectError(ask(ChildNames, "t.dyn.nosuch"), ErrName)
}

func TestPMNSTraverse(t *testing.T) {
	p := startPMNSServer(t, newTestNamespace())
	ask := func(name string) []byte { return (&PMNSTraverse{Name: name}).Append(nil) }
	p.expectNames(ask("t.dyn.app"), []string{"t.dyn.app.errors", "t.dyn.app.requests"}, nil)
	p.expectNames(ask("t.dyn.uptime"), []string{"t.dyn.uptime"}, nil)
	p.expectNames(ask("t.dyn"), []string{"t.dyn.alias.requests", "t.dyn.app.errors", "t.dyn.app.requests",
		"t.dyn.db.pool.conns", "t.dyn.uptime"}, nil)
	p.expectError(ask("t.dyn.nosuch"), ErrName)
	// An empty subtree answers no names: an error would fail a newer
	// pmcd's whole traversal.
	empty := startPMNSServer(t, testNamespace{root: "t.dyn"})
	empty.expectNames(ask("t.dyn"), nil, nil)
}

// TestPMNSRepliesFitMaxLen: a subtree too big for one PDU is cut to the
// names that fit, in order, and the server goes on serving.
func TestPMNSRepliesFitMaxLen(t *testing.T) {
	ns := testNamespace{root: "t.dyn", leaves: map[string]uint32{}}
	for i := 0; i < 500; i++ {
		ns.leaves[fmt.Sprintf("t.dyn.m%03d", i)] = uint32(i)
	}
	p := startPMNSServer(t, ns) // MaxLen 4096
	p.send((&PMNSTraverse{Name: "t.dyn"}).Append(nil))
	h, reply := p.read()
	var got PMNSNames
	if h.Type != TypePMNSNames || got.Decode(reply) != nil || len(reply) > 4096 {
		t.Fatalf("reply %v of %d bytes", h.Type, len(reply))
	}
	// 24 bytes of header, then 4+12 per name: 254 names fill 4088 bytes.
	if len(got.Names) != 254 || got.Names[253] != "t.dyn.m253" {
		t.Errorf("%d names, last %q", len(got.Names), got.Names[len(got.Names)-1])
	}
	// With a status: 4+4+4 per child, 339 fill 4092 bytes.
	var kids []string
	for i := 0; i < 339; i++ {
		kids = append(kids, fmt.Sprintf("m%03d", i))
	}
	p.expectNames((&PMNSChild{Subtype: ChildWithStatus, Name: "t.dyn"}).Append(nil), kids, make([]int32, 339))
	p.expectNames(namesOfPDU(7), []string{"t.dyn.m007"}, nil)
}

// badNamespace returns names pmcd could not take.
type badNamespace struct{ testNamespace }

func (badNamespace) Names(uint32) ([]string, bool) { return []string{"", "a\x00b", "t.dyn.ok"}, true }

func (badNamespace) Children(string) ([]Child, bool) {
	return []Child{{Name: "x.y"}, {Name: ""}, {Name: "ok", Leaf: true}}, true
}

func (badNamespace) Traverse(string) ([]string, bool) {
	return []string{strings.Repeat("n", maxNameLen+1)}, true
}

func TestPMNSInvalidNamesAreDropped(t *testing.T) {
	p := startPMNSServer(t, badNamespace{newTestNamespace()})
	p.expectNames(namesOfPDU(1), []string{"t.dyn.ok"}, nil)
	p.expectNames((&PMNSChild{Subtype: ChildWithStatus, Name: "t"}).Append(nil), []string{"ok"}, []int32{StatusLeaf})
	p.expectNames((&PMNSTraverse{Name: "t"}).Append(nil), nil, nil)
}

// TestPMNSMalformedKeepsServing: each malformed request gets PM_ERR_IPC
// and the next request is answered in step.
func TestPMNSMalformedKeepsServing(t *testing.T) {
	p := startPMNSServer(t, newTestNamespace())
	names := capture(t, "pmns_names_req")
	child := capture(t, "pmns_child_req")
	for _, bad := range [][]byte{
		patch(names, 20, 0x7fffffff),         // numnames past the end
		patch(names, 24, 0x7fffffff),         // namelen past the end
		patch(names[:44], 0, 44),             // name's padding cut
		patch(child, 16, 0xffffffff),         // negative namelen
		patch(child, 20, 0x73000000),         // NUL in the name
		patch(capture(t, "pmns_ids"), 16, 0), // no PMID
		patch(capture(t, "pmns_traverse_req")[:20], 0, 20),
	} {
		p.expectError(bad, ErrIPC)
	}
	p.expectNames((&PMNSTraverse{Name: "t.dyn.uptime"}).Append(nil), []string{"t.dyn.uptime"}, nil)
}

// TestPMNSWithoutNamespace: with no Namespace every request is refused as
// for a static namespace, the captures from pmcd included.
func TestPMNSWithoutNamespace(t *testing.T) {
	p := startServer(t, nil)
	p.expectError(capture(t, "pmns_ids_reply"), ErrPMID)
	p.expectError(capture(t, "pmns_names_req"), ErrName)
	p.expectError(capture(t, "pmns_child_req"), ErrName)
	p.expectError(capture(t, "pmns_traverse_req"), ErrName)
}
