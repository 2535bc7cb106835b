package pmda

import (
	"bytes"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Status words of a PMNS_NAMES entry (PMNS_LEAF_STATUS, PMNS_NONLEAF_STATUS).
const (
	StatusLeaf    int32 = 0
	StatusNonLeaf int32 = 1
)

// Subtypes of a PMNS_CHILD request: names only, or names with a status each.
const (
	ChildNames      int32 = 0
	ChildWithStatus int32 = 1
)

// namePad fills a name to four bytes as libpcp does, so our PDUs match
// pmcd's byte for byte; readers ignore the pad's content.
const namePad = '~'

// PMNSIDs is a list of PMIDs: pmcd asks for the names of one PMID with it,
// and a PMDA answers a name lookup with one. Status is a protocol remnant:
// pmcd sends 0 and reads a negative one in a reply as the lookup's error.
type PMNSIDs struct {
	Status int32
	PMIDs  []uint32
}

// Decode reads a PMNS_IDS: sts numids pmid*, at least one PMID, no more
// than the PDU holds.
func (p *PMNSIDs) Decode(pdu []byte) error {
	r := newReader(pdu)
	p.Status = r.i32("sts")
	n := r.count(4, "numids")
	if r.err == nil && n == 0 {
		r.fail("numids 0")
	}
	p.PMIDs = make([]uint32, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		p.PMIDs = append(p.PMIDs, r.u32("pmid"))
	}
	return r.end()
}

// Append writes a PMNS_IDS.
func (p *PMNSIDs) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypePMNSIDs)
	dst = pcpenc.AppendI32(dst, p.Status)
	dst = pcpenc.AppendI32(dst, int32(len(p.PMIDs)))
	for _, id := range p.PMIDs {
		dst = pcpenc.AppendU32(dst, id)
	}
	return finishPDU(dst, start)
}

// PMNSNames is a list of names: pmcd's name lookup (one full name), and a
// PMDA's answer to PMNS_IDS (full names), PMNS_CHILD (last components) and
// PMNS_TRAVERSE (full names). Status is nil or holds one word per name.
type PMNSNames struct {
	Names  []string
	Status []int32
}

// Decode reads a PMNS_NAMES: nstrbytes numstatus numnames, then per name
// [status] namelen name, padded to four. As pmcd checks: numstatus is 0 or
// numnames, and each name costs at least two words (three with a status),
// so the count is bounded by the PDU. We also require nstrbytes to be the
// names' bytes plus one each, as every sender writes it.
func (p *PMNSNames) Decode(pdu []byte) error {
	r := newReader(pdu)
	strBytes := r.i32("nstrbytes")
	numStatus := r.i32("numstatus")
	entry := 8
	if numStatus != 0 {
		entry = 12
	}
	n := r.count(entry, "numnames")
	if r.err == nil && numStatus != 0 && int(numStatus) != n {
		r.fail("numstatus not 0 nor numnames")
	}
	p.Names, p.Status = make([]string, 0, n), nil
	if numStatus != 0 {
		p.Status = make([]int32, 0, n)
	}
	sum := 0
	for i := 0; i < n && r.err == nil; i++ {
		if numStatus != 0 {
			p.Status = append(p.Status, r.i32("status"))
		}
		name := readPMNSName(r)
		sum += len(name) + 1
		p.Names = append(p.Names, name)
	}
	if r.err == nil && int(strBytes) != sum {
		r.fail("nstrbytes not the names' length")
	}
	return r.end()
}

// Append writes a PMNS_NAMES; the status words go out only when Status
// holds one per name.
func (p *PMNSNames) Append(dst []byte) []byte {
	withStatus := p.Status != nil && len(p.Status) == len(p.Names)
	dst, start := beginPDU(dst, TypePMNSNames)
	strBytes, numStatus := 0, 0
	for _, name := range p.Names {
		strBytes += len(name) + 1
	}
	if withStatus {
		numStatus = len(p.Names)
	}
	dst = pcpenc.AppendI32(dst, int32(strBytes))
	dst = pcpenc.AppendI32(dst, int32(numStatus))
	dst = pcpenc.AppendI32(dst, int32(len(p.Names)))
	for i, name := range p.Names {
		if withStatus {
			dst = pcpenc.AppendI32(dst, p.Status[i])
		}
		dst = appendPMNSName(dst, name)
	}
	return finishPDU(dst, start)
}

// pmnsNamesHeader is the PMNS_NAMES size before its first name.
const pmnsNamesHeader = HeaderLen + 12

// pmnsEntryLen is what one name adds to a PMNS_NAMES.
func pmnsEntryLen(name string, withStatus bool) int {
	n := 4 + roundup4(len(name))
	if withStatus {
		n += 4
	}
	return n
}

// PMNSChild asks for the children of a name: their last components, with
// a status each when Subtype is ChildWithStatus.
type PMNSChild struct {
	Subtype int32
	Name    string
}

// Decode reads a PMNS_CHILD: subtype namelen name, padded to four.
func (q *PMNSChild) Decode(pdu []byte) (err error) {
	q.Subtype, q.Name, err = decodeNameReq(pdu)
	return err
}

// Append writes a PMNS_CHILD (tests).
func (q *PMNSChild) Append(dst []byte) []byte {
	return appendNameReq(dst, TypePMNSChild, q.Subtype, q.Name)
}

// PMNSTraverse asks for the full names of every leaf at or below a name.
// pmcd always sends subtype 0.
type PMNSTraverse struct {
	Subtype int32
	Name    string
}

// Decode reads a PMNS_TRAVERSE, laid out as PMNS_CHILD.
func (q *PMNSTraverse) Decode(pdu []byte) (err error) {
	q.Subtype, q.Name, err = decodeNameReq(pdu)
	return err
}

// Append writes a PMNS_TRAVERSE (tests).
func (q *PMNSTraverse) Append(dst []byte) []byte {
	return appendNameReq(dst, TypePMNSTraverse, q.Subtype, q.Name)
}

func decodeNameReq(pdu []byte) (int32, string, error) {
	r := newReader(pdu)
	subtype := r.i32("subtype")
	name := readPMNSName(r)
	return subtype, name, r.end()
}

func appendNameReq(dst []byte, t Type, subtype int32, name string) []byte {
	dst, start := beginPDU(dst, t)
	dst = pcpenc.AppendI32(dst, subtype)
	dst = appendPMNSName(dst, name)
	return finishPDU(dst, start)
}

// readPMNSName reads namelen and the name: at most maxNameLen bytes, no NUL
// (pmcd hands names on as C strings), padding skipped.
func readPMNSName(r *reader) string {
	n := r.i32("namelen")
	if r.err == nil && (n < 0 || n > maxNameLen) {
		r.fail("namelen")
	}
	b := r.bytes(int(n), "name")
	if r.err == nil && bytes.IndexByte(b, 0) >= 0 {
		r.fail("NUL in name")
	}
	return string(b)
}

func appendPMNSName(dst []byte, name string) []byte {
	dst = pcpenc.AppendI32(dst, int32(len(name)))
	dst = append(dst, name...)
	for i := len(name); i%4 != 0; i++ {
		dst = append(dst, namePad)
	}
	return dst
}
