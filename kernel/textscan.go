package kernel

import (
	"strings"
)

// Line and field helpers for the own parsers of /proc/meminfo, vmstat,
// swaps and pressure (and NextWord for net/dev and snmp). They work on the
// file's bytes in place and split fields as strings.Fields does (the
// kernel separates fields with spaces and tabs), so a steady-state parse
// allocates nothing.

// nextTextLine returns the first line of b and the rest: without its
// newline and one carriage return before it. A line may be of any length:
// the file's size is bounded where it is read (MaxFileSize).
func nextTextLine(b []byte) (line, rest []byte) {
	line, rest = nextLine(b)
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, rest
}

// byteClass sorts bytes for splitFields: the ASCII bytes unicode.IsSpace
// calls spaces, and the bytes that start or continue a UTF-8 sequence.
var byteClass = func() (t [256]uint8) {
	for c, space := range asciiSpaces {
		if space {
			t[c] = classSpace
		}
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = classNonASCII
	}
	return t
}()

const (
	classOther = iota
	classSpace
	classNonASCII
)

// splitFields puts the first len(out) whitespace-separated fields of line
// into out, as strings.Fields would split it, and returns how many fields
// the line has, counting no further than len(out)+1. It handles only
// ASCII: ascii is false, and n meaningless, for a line with a byte of
// 0x80 or more before that point, which strings.Fields would decode as
// UTF-8 and might split at a Unicode space (see splitFieldsSlow).
func splitFields(line []byte, out [][]byte) (n int, ascii bool) {
	start := -1 // where the current field began
	for i, c := range line {
		switch byteClass[c] {
		case classOther:
			if start < 0 {
				start = i
			}
		case classSpace:
			if start < 0 {
				continue
			}
			if n < len(out) {
				out[n] = line[start:i]
			}
			n++
			if n > len(out) {
				// Unicode spaces further on could only add fields.
				return n, true
			}
			start = -1
		default:
			return 0, false
		}
	}
	if start >= 0 {
		if n < len(out) {
			out[n] = line[start:]
		}
		n++
	}
	return n, true
}

// splitFieldsSlow is splitFields for a line that is not ASCII, through
// strings.Fields itself. It allocates; no kernel writes such a line.
func splitFieldsSlow(line []byte, out [][]byte) int {
	f := strings.Fields(string(line))
	for i := range min(len(f), len(out)) {
		out[i] = []byte(f[i])
	}
	return min(len(f), len(out)+1)
}

// fieldsOf is splitFields with the fallback for non-ASCII lines.
func fieldsOf(line []byte, out [][]byte) int {
	n, ascii := splitFields(line, out)
	if !ascii {
		n = splitFieldsSlow(line, out)
	}
	return n
}

// parseAtoi is strconv.Atoi for a 64-bit int without allocating: an
// optional sign, then at least one decimal digit, within range.
func parseAtoi(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(u), true // -(1<<63) wraps to itself: MinInt64
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}

// NextWord returns the next field of b separated by ASCII white space (as
// strings.Fields splits ASCII text), and the rest; nil when none is left.
// nextField splits on blanks and tabs only: a stray carriage return or
// vertical tab there would stick to a number.
func NextWord(b []byte) (word, rest []byte) {
	i := 0
	for i < len(b) && asciiSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !asciiSpace(b[j]) {
		j++
	}
	if i == j {
		return nil, nil
	}
	return b[i:j], b[j:]
}

// NextDecimal is NextWord then ParseDecimal on the word, in one pass over
// a plain number: the word's value and the text after it, or false (and
// no rest) when the next word is missing or not a decimal.
func NextDecimal(b []byte) (v uint64, rest []byte, ok bool) {
	i := 0
	for i < len(b) && asciiSpace(b[i]) {
		i++
	}
	v, digits := plainDigits(b[i:])
	if j := i + digits; digits > 0 && (j == len(b) || asciiSpace(b[j])) {
		return v, b[j:], true
	}
	// Longer than 19 digits, or not a plain number: the careful way.
	w, rest := NextWord(b[i:])
	if v, ok = ParseDecimal(w); !ok {
		return 0, nil, false
	}
	return v, rest, true
}

func asciiSpace(c byte) bool { return asciiSpaces[c] }

// asciiSpaces holds the bytes strings.Fields splits ASCII text on: one
// load per byte instead of six comparisons.
var asciiSpaces = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}
