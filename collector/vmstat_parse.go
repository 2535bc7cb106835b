package collector

import (
	"bufio"
	"errors"
)

// /proc/vmstat has some 180 "name value" lines, of which the vmstat and
// swap collectors use a few dozen. They used to be read into a map with a
// string per name (bufio.Scanner, strings.Fields, strconv): two allocations
// a line. This parser looks each name up without converting it and keeps
// only the wanted values, in place. What it accepts is unchanged: a line
// that is not exactly two fields (split as strings.Fields splits) with an
// unsigned decimal value is skipped, a repeated name keeps its last value,
// and the file is refused when no line is good or a line is 64 KiB or
// longer (where bufio.Scanner failed).

// vmstatSample holds the wanted fields of a parsed /proc/vmstat.
type vmstatSample struct {
	slot map[string]int // field name -> index into val and has
	val  []uint64
	has  []bool // false: the kernel did not print the field
}

// newVMStatSample makes room for the named fields, in that order; a name
// listed twice shares one slot.
func newVMStatSample(names ...string) *vmstatSample {
	s := &vmstatSample{slot: make(map[string]int, len(names))}
	for _, n := range names {
		if _, dup := s.slot[n]; !dup {
			s.slot[n] = len(s.slot)
		}
	}
	s.val = make([]uint64, len(s.slot))
	s.has = make([]bool, len(s.slot))
	return s
}

// get returns the named field, false when absent (or not wanted).
func (s *vmstatSample) get(name string) (uint64, bool) {
	i, ok := s.slot[name]
	if !ok {
		return 0, false
	}
	return s.val[i], s.has[i]
}

var errNoVMStatLine = errors.New("no \"name value\" lines")

// parseVMStat fills s from /proc/vmstat's text (see above for the rules).
func parseVMStat(data []byte, s *vmstatSample) error {
	clear(s.has)
	good := false
	for len(data) > 0 {
		line, rest, tooLong := nextScanLine(data)
		if tooLong {
			return bufio.ErrTooLong
		}
		data = rest
		var f [2][]byte
		if fieldsOf(line, f[:]) != 2 {
			continue
		}
		v, ok := parseDecimal(f[1])
		if !ok {
			continue
		}
		good = true
		if i, want := s.slot[string(f[0])]; want {
			s.val[i], s.has[i] = v, true
		}
	}
	if !good {
		return errNoVMStatLine
	}
	return nil
}
