package pmda

import (
	"slices"

	"github.com/pmdahostcache/pmdahostcache/internal/pcpenc"
)

// Profile states (PM_PROFILE_*).
const profileExclude = 1

// Profile says which instances a client context wants. It decodes into
// reused slices: with several clients pmcd sends one before most fetches.
type Profile struct {
	Ctx        int32
	ExcludeAll bool // g_state: instances of unlisted indoms are excluded
	InDoms     []ProfileInDom
	insts      []uint32 // backing store of every entry's Insts
}

// ProfileInDom is one indom's entry: the listed instances are the exceptions
// to its state.
type ProfileInDom struct {
	InDom   uint32
	Exclude bool     // state: unlisted instances are excluded
	Insts   []uint32 // sorted
	count   int
}

// Decode reads a PROFILE PDU, reusing p's storage.
func (p *Profile) Decode(pdu []byte) error {
	r := newReader(pdu)
	p.Ctx = r.i32("ctxid")
	p.ExcludeAll = r.i32("g_state") == profileExclude
	n := r.count(16, "numprof")
	r.u32("pad")
	p.InDoms = p.InDoms[:0]
	total := 0
	for i := 0; i < n && r.err == nil; i++ {
		e := ProfileInDom{InDom: r.u32("indom"), Exclude: r.i32("state") == profileExclude}
		e.count = r.count(4, "numinst")
		r.u32("pad")
		total += e.count
		p.InDoms = append(p.InDoms, e)
	}
	if r.err == nil && total > (len(pdu)-r.off)/4 {
		r.fail("instance lists")
	}
	if r.err != nil {
		p.InDoms = p.InDoms[:0]
		return r.err
	}
	p.insts = slices.Grow(p.insts[:0], total)[:total]
	off := 0
	for i := range p.InDoms {
		insts := p.insts[off : off+p.InDoms[i].count : off+p.InDoms[i].count]
		for j := range insts {
			insts[j] = r.u32("inst")
		}
		slices.Sort(insts)
		p.InDoms[i].Insts = insts
		off += len(insts)
	}
	return r.end()
}

// Includes reports whether the profile selects instance inst of indom, with
// libpcp's rule: an unlisted indom follows the global state; a listed one
// selects an instance iff its listing and the entry's state disagree.
func (p *Profile) Includes(indom, inst uint32) bool {
	for i := range p.InDoms {
		e := &p.InDoms[i]
		if e.InDom != indom {
			continue
		}
		_, listed := slices.BinarySearch(e.Insts, inst)
		return listed == e.Exclude
	}
	return !p.ExcludeAll
}

// IncludesAll reports whether every instance of indom is selected, the
// common case that lets a fetch skip per-instance checks.
func (p *Profile) IncludesAll(indom uint32) bool {
	for i := range p.InDoms {
		if p.InDoms[i].InDom == indom {
			return !p.InDoms[i].Exclude && len(p.InDoms[i].Insts) == 0
		}
	}
	return !p.ExcludeAll
}

// Append writes a PROFILE PDU (used by tests and the benchmark driver).
func (p *Profile) Append(dst []byte) []byte {
	dst, start := beginPDU(dst, TypeProfile)
	dst = pcpenc.AppendI32(dst, p.Ctx)
	dst = pcpenc.AppendI32(dst, boolState(p.ExcludeAll))
	dst = pcpenc.AppendI32(dst, int32(len(p.InDoms)))
	dst = pcpenc.AppendU32(dst, 0)
	for _, e := range p.InDoms {
		dst = pcpenc.AppendU32(dst, e.InDom)
		dst = pcpenc.AppendI32(dst, boolState(e.Exclude))
		dst = pcpenc.AppendI32(dst, int32(len(e.Insts)))
		dst = pcpenc.AppendU32(dst, 0)
	}
	for _, e := range p.InDoms {
		for _, in := range e.Insts {
			dst = pcpenc.AppendU32(dst, in)
		}
	}
	return finishPDU(dst, start)
}

func boolState(exclude bool) int32 {
	if exclude {
		return profileExclude
	}
	return 0
}
