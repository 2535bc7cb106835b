package kernel

import (
	"errors"
)

// /proc/vmstat (Documentation/admin-guide/mm, and proc.rst) has some 180
// "name value" lines, of which the vmstat and swap collectors use a few
// dozen. pmdalinux (proc_vmstat.c) reads each as a name and a decimal and
// skips the names it does not know; so does this parser, looking each name
// up without converting it and keeping only the wanted values, in place:
// a line that is not exactly two fields with an unsigned decimal value is
// skipped, a repeated name keeps its last value, and the file is refused
// only when no line is good. procfs has no vmstat parser: the tests hold
// this one against the map-based parser it replaced.

// VMStat holds the wanted fields of a parsed /proc/vmstat.
type VMStat struct {
	Slot map[string]int // field name -> index into val and has
	Val  []uint64
	Has  []bool // false: the kernel did not print the field
}

// NewVMStat makes room for the named fields, in that order; a name
// listed twice shares one slot.
func NewVMStat(names ...string) *VMStat {
	s := &VMStat{Slot: make(map[string]int, len(names))}
	for _, n := range names {
		if _, dup := s.Slot[n]; !dup {
			s.Slot[n] = len(s.Slot)
		}
	}
	s.Val = make([]uint64, len(s.Slot))
	s.Has = make([]bool, len(s.Slot))
	return s
}

// Get returns the named field, false when absent (or not wanted).
func (s *VMStat) Get(name string) (uint64, bool) {
	i, ok := s.Slot[name]
	if !ok {
		return 0, false
	}
	return s.Val[i], s.Has[i]
}

var errNoVMStatLine = errors.New("no \"name value\" lines")

// ParseVMStat fills s from /proc/vmstat's text (see above for the rules).
func ParseVMStat(data []byte, s *VMStat) error {
	clear(s.Has)
	good := false
	for len(data) > 0 {
		line, rest := nextTextLine(data)
		data = rest
		var f [2][]byte
		if fieldsOf(line, f[:]) != 2 {
			continue
		}
		v, ok := ParseDecimal(f[1])
		if !ok {
			continue
		}
		good = true
		if i, want := s.Slot[string(f[0])]; want {
			s.Val[i], s.Has[i] = v, true
		}
	}
	if !good {
		return errNoVMStatLine
	}
	return nil
}
