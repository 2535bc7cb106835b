package mmv

import "sort"

// section is one table of contents entry, checked to lie inside the file.
type section struct {
	present  bool
	count    int64
	off, end int64
	size     int64 // of one record
	entry    int64 // where its table of contents entry lies
	typ      uint32
}

// has reports whether off is the start of one of the section's records.
func (s *section) has(off uint64) bool {
	return s.present && off >= uint64(s.off) && off < uint64(s.end) && (off-uint64(s.off))%uint64(s.size) == 0
}

// sections are the table of contents, indexed by section type.
type sections [secTypes + 1]section

func recordSize(typ uint32, version int) int64 {
	switch typ {
	case secIndoms:
		return indomSize
	case secInstances:
		if version == 1 {
			return inst1Size
		}
		return inst2Size
	case secMetrics:
		if version == 1 {
			return metric1Size
		}
		return metric2Size
	case secValues:
		return valueSize
	case secStrings:
		return stringSize
	}
	return labelSize
}

func sectionLimit(typ uint32, lim Limits) int {
	switch typ {
	case secIndoms:
		return lim.MaxIndoms
	case secInstances:
		return lim.MaxInstances
	case secMetrics:
		return lim.MaxMetrics
	case secValues:
		return lim.MaxValues
	case secStrings:
		return lim.MaxStrings
	}
	return lim.MaxLabels
}

func parseTOC(data []byte, h header, lim Limits) (*sections, error) {
	var secs sections
	first := int64(headerSize + tocSize*h.tocs)
	if first > int64(len(data)) {
		return nil, formatErr(headerSize, "%d table of contents entries need %d bytes, file has %d",
			h.tocs, first, len(data))
	}
	for i := range h.tocs {
		if err := parseEntry(data, h, lim, &secs, int64(headerSize+tocSize*i), first); err != nil {
			return nil, err
		}
	}
	for _, typ := range []uint32{secMetrics, secValues} {
		if !secs[typ].present {
			return nil, formatErr(headerSize, "no %s section", sectionName(typ))
		}
	}
	return &secs, overlaps(&secs)
}

func parseEntry(data []byte, h header, lim Limits, secs *sections, at, first int64) error {
	typ, _ := u32(data, at)
	count, _ := u32(data, at+4)
	off, _ := u64(data, at+8)
	if typ < 1 || typ > secTypes {
		return formatErr(at, "section type %d", int32(typ))
	}
	name := sectionName(typ)
	if secs[typ].present {
		return formatErr(at, "second %s section (first at %d)", name, secs[typ].entry)
	}
	if typ == secLabels && h.version < 3 {
		return formatErr(at, "labels section in a version %d file", h.version)
	}
	if int32(count) < 0 {
		return formatErr(at+4, "%s count %d", name, int32(count))
	}
	if int64(count) > int64(sectionLimit(typ, lim)) {
		return errAt(ErrLimit, at+4, "%d %s, limit %d", count, name, sectionLimit(typ, lim))
	}
	if off < uint64(first) {
		return formatErr(at+8, "%s section at %d, inside the header and table of contents (%d bytes)", name,
			off, first)
	}
	size := recordSize(typ, h.version)
	end, ok := span(int64(len(data)), off, int64(count), size)
	if !ok {
		return formatErr(at+8, "%d %s of %d bytes at %d run past the end (%d)",
			count, name, size, off, len(data))
	}
	secs[typ] = section{present: true, count: int64(count), off: int64(off), end: end, size: size,
		entry: at, typ: typ}
	return nil
}

// overlaps refuses two sections that share bytes.
func overlaps(secs *sections) error {
	var list []*section
	for i := range secs {
		if secs[i].present && secs[i].count > 0 {
			list = append(list, &secs[i])
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].off < list[j].off })
	for i := 1; i < len(list); i++ {
		if a, b := list[i-1], list[i]; b.off < a.end {
			return formatErr(b.entry+8, "%s section at %d overlaps %s section (%d to %d)",
				sectionName(b.typ), b.off, sectionName(a.typ), a.off, a.end)
		}
	}
	return nil
}
