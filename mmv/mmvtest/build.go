package mmvtest

import (
	"encoding/binary"
	"os"
	"path/filepath"
)

// Built is a file and where its records lie, as offsets into Data.
type Built struct {
	Version   int
	Data      []byte
	Sections  map[int]int // section type → offset of the section
	Indoms    []int
	Instances [][]int // per domain, each instance's record
	Metrics   []int
	Values    []ValueAt
	Strings   int // offset of the strings section, 0 without one
	Labels    []int
}

// ValueAt is where one value's record, and a string value's text, lie.
type ValueAt struct {
	Metric, Inst string // Inst is "" for a singular metric
	Record       int
	String       int
}

// plan holds the section offsets Build computes before writing.
type plan struct {
	toc, indoms, instances, metrics, values, strings, labels, end int
	nvalues, nstrings, ninst                                      int
}

// Build lays out s as libpcp_mmv does and fills in every record. It
// trusts s: a metric naming a missing domain is written as singular.
func Build(s Spec) *Built {
	p := layout(s)
	b := &Built{Version: s.Version, Data: make([]byte, p.end), Sections: map[int]int{}, Strings: p.strings}
	b.header(s, p)
	w := &writer{b: b, s: s, next: p.strings}
	w.indoms(p)
	w.metrics(p)
	w.values(p)
	w.labels(p)
	return b
}

func layout(s Spec) plan {
	var p plan
	for _, d := range s.Indoms {
		p.ninst += len(d.Instances)
		p.nstrings += countText(d.Short, d.Long)
		if s.Version > 1 {
			p.nstrings += len(d.Instances)
		}
	}
	for _, m := range s.Metrics {
		p.nvalues += len(m.Values)
		p.nstrings += countText(m.Short, m.Long)
		if s.Version > 1 {
			p.nstrings++
		}
		if m.Type == TypeString {
			p.nstrings += len(m.Values)
		}
	}
	p.toc = HeaderSize
	p.indoms = p.toc + TOCSize*tocCount(s, p)
	p.instances = p.indoms + IndomSize*len(s.Indoms)
	p.metrics = p.instances + InstSize(s.Version)*p.ninst
	p.values = p.metrics + MetricSize(s.Version)*len(s.Metrics)
	p.strings = p.values + ValueSize*p.nvalues
	p.labels = p.strings + StringSize*p.nstrings
	p.end = p.labels + LabelSize*len(s.Labels)
	return p
}

func countText(texts ...string) int {
	n := 0
	for _, t := range texts {
		if t != "" {
			n++
		}
	}
	return n
}

func tocCount(s Spec, p plan) int {
	n := 2
	if len(s.Indoms) > 0 {
		n += 2
	}
	if p.nstrings > 0 {
		n++
	}
	if len(s.Labels) > 0 {
		n++
	}
	return n
}

func (b *Built) header(s Spec, p plan) {
	gen := s.Gen
	if gen == 0 {
		gen = 1
	}
	copy(b.Data, "MMV\x00")
	b.PutU32(HdrVersion, uint32(s.Version))
	b.PutU64(HdrGen1, gen)
	b.PutU64(HdrGen2, gen)
	b.PutU32(HdrFlags, s.Flags)
	b.PutU32(HdrPID, uint32(s.PID))
	b.PutU32(HdrCluster, s.Cluster)
	hasIndoms := len(s.Indoms) > 0
	toc := []struct {
		typ, count, off int
		present         bool
	}{
		{SecIndoms, len(s.Indoms), p.indoms, hasIndoms}, {SecInstances, p.ninst, p.instances, hasIndoms},
		{SecMetrics, len(s.Metrics), p.metrics, true}, {SecValues, p.nvalues, p.values, true},
		{SecStrings, p.nstrings, p.strings, p.nstrings > 0},
		{SecLabels, len(s.Labels), p.labels, len(s.Labels) > 0},
	}
	n := 0
	for _, e := range toc {
		if !e.present {
			continue
		}
		at := b.TOC(n)
		b.PutU32(at+TOCType, uint32(e.typ))
		b.PutU32(at+TOCCount, uint32(e.count))
		b.PutU64(at+TOCOffset, uint64(e.off))
		b.Sections[e.typ] = e.off
		n++
	}
	b.PutU32(HdrTOCs, uint32(n))
}

// PutU32 writes a native-endian 32-bit word at off.
func (b *Built) PutU32(off int, v uint32) { binary.NativeEndian.PutUint32(b.Data[off:], v) }

// PutU64 writes a native-endian 64-bit word at off.
func (b *Built) PutU64(off int, v uint64) { binary.NativeEndian.PutUint64(b.Data[off:], v) }

// TOC is the offset of the i'th table of contents entry.
func (b *Built) TOC(i int) int { return HeaderSize + i*TOCSize }

// Find is the index in Values of metric's value for instance inst ("" for
// a singular metric), or -1.
func (b *Built) Find(metric, inst string) int {
	for i, v := range b.Values {
		if v.Metric == metric && v.Inst == inst {
			return i
		}
	}
	return -1
}

// SetBits rewrites value i's atom in place, as an instrumented program does.
func (b *Built) SetBits(i int, bits uint64) { b.PutU64(b.Values[i].Record+ValAtom, bits) }

// SetString rewrites string value i's text in place; s must be shorter
// than StringSize.
func (b *Built) SetString(i int, s string) {
	slot := b.Data[b.Values[i].String : b.Values[i].String+StringSize]
	clear(slot)
	copy(slot, s)
	b.PutU64(b.Values[i].Record+ValAtom, uint64(len(s)))
}

// WriteFile writes the file at path, replacing any file there at once
// (a temporary file renamed over it), as a restarting program would.
func (b *Built) WriteFile(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mmvtest-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b.Data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
