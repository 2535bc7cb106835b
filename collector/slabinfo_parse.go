package collector

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// slabRow is one cache's line of /proc/slabinfo.
type slabRow struct {
	name                    string
	activeObjs, totalObjs   uint64
	objSize, objsPerSlab    uint64
	pagesPerSlab            uint64
	activeSlabs, totalSlabs uint64
}

// slabinfoHeads are the first lines of the formats read: version 2.0 and
// 2.1 (every kernel since 2.6), whose lines are
//
//	name active_objs num_objs objsize objperslab pagesperslab \
//	    : tunables l b s : slabdata active_slabs num_slabs shared
//
// (one line, wrapped here).
//
// The 1.x formats of Linux 2.2 and 2.4 predate any kernel Go runs on.
var slabinfoHeads = [][]byte{[]byte("slabinfo - version: 2.0"), []byte("slabinfo - version: 2.1")}

// parseSlabinfo reads the caches of text into rows, reusing its storage. A
// malformed line costs only itself and is counted in bad; a cache listed
// twice keeps its last line, as pmdalinux does.
func parseSlabinfo(text []byte, rows []slabRow) (out []slabRow, bad int, err error) {
	head, rest, _ := bytes.Cut(text, []byte("\n"))
	if !slabinfoKnown(head) {
		return rows[:0], 0, fmt.Errorf("unsupported format %q", head)
	}
	rows = rows[:0]
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		r, err := parseSlabLine(line)
		if err != nil {
			bad++
			continue
		}
		rows = keepLastSlab(rows, r)
	}
	return rows, bad, nil
}

func slabinfoKnown(head []byte) bool {
	for _, h := range slabinfoHeads {
		if bytes.Equal(bytes.TrimSpace(head), h) {
			return true
		}
	}
	return false
}

// keepLastSlab appends r, or replaces an earlier row of the same name.
func keepLastSlab(rows []slabRow, r slabRow) []slabRow {
	for i := range rows {
		if rows[i].name == r.name {
			rows[i] = r
			return rows
		}
	}
	return append(rows, r)
}

var errSlabLine = errors.New("malformed slabinfo line")

// parseSlabLine reads one cache's line.
func parseSlabLine(line []byte) (slabRow, error) {
	f := bytes.Fields(slabName(line))
	if len(f) < 15 || string(f[6]) != ":" || string(f[11]) != ":" {
		return slabRow{}, errSlabLine
	}
	r := slabRow{name: string(f[0])}
	for _, p := range []struct {
		field []byte
		to    *uint64
		bits  int
	}{{f[1], &r.activeObjs, 64}, {f[2], &r.totalObjs, 64}, {f[3], &r.objSize, 32}, {f[4], &r.objsPerSlab, 32},
		{f[5], &r.pagesPerSlab, 32}, {f[13], &r.activeSlabs, 32}, {f[14], &r.totalSlabs, 32}} {
		v, err := strconv.ParseUint(string(p.field), 10, p.bits)
		if err != nil {
			return slabRow{}, errSlabLine
		}
		*p.to = v
	}
	return r, nil
}

// slabName applies pmdalinux's rule for cache names with spaces, on a
// copy of line: before the line's first digit, the last white space
// before each letter that follows white space becomes an underscore,
// with whatever lies between them ("a b" is "a_b", "a -b" is "a__b").
// A name with two spaces in a row stays unreadable ("a  b" is "a _b").
func slabName(line []byte) []byte {
	out := bytes.Clone(line)
	w := -1 // the last white space seen, -1 for none
	for p, ch := range out {
		switch {
		case isCSpace(ch):
			w = p
		case ch >= '0' && ch <= '9':
			return out
		case isCAlpha(ch) && w >= 0:
			for ; w < p; w++ {
				out[w] = '_'
			}
			w = -1
		}
	}
	return out
}

// isCSpace and isCAlpha are C's isspace and isalpha in the C locale.
func isCSpace(ch byte) bool { return ch == ' ' || (ch >= '\t' && ch <= '\r') }

func isCAlpha(ch byte) bool { return (ch|0x20) >= 'a' && (ch|0x20) <= 'z' }
