package pmda

import "github.com/pmdahostcache/pmdahostcache/internal/pcpenc"

// Fetch asks for the values of a list of PMIDs.
type Fetch struct {
	Ctx   int32
	PMIDs []uint32
}

// Decode reads a FETCH PDU into f, reusing its PMID slice. As libpcp does, it
// insists on numpmid > 0 and an exact length.
func (f *Fetch) Decode(pdu []byte) error {
	r := newReader(pdu)
	f.Ctx = r.i32("ctxid")
	r.u32("unused")
	r.u32("unused")
	n := r.count(4, "numpmid")
	if r.err == nil && n == 0 {
		r.fail("numpmid 0")
	}
	f.PMIDs = f.PMIDs[:0]
	for i := 0; i < n; i++ {
		f.PMIDs = append(f.PMIDs, r.u32("pmid"))
	}
	return r.end()
}

// Append writes a FETCH PDU (tests and the benchmark driver).
func (f *Fetch) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeFetch)
	dst = pcpenc.AppendI32(dst, f.Ctx)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendU32(dst, 0)
	dst = pcpenc.AppendI32(dst, int32(len(f.PMIDs)))
	for _, p := range f.PMIDs {
		dst = pcpenc.AppendU32(dst, p)
	}
	return finishPDU(dst, start)
}
