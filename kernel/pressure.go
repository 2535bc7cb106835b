package kernel

import (
	"fmt"
)

// The /proc/pressure files (Documentation/accounting/psi.rst) are read
// every sample, so this parser reads the lines as the kernel prints them
//
//	some avg10=0.12 avg60=0.34 avg300=0.56 total=7890
//
// without allocating, and hands any line in another form to fmt.Sscanf,
// so that what it accepts, refuses and reads stays exactly as before:
//   - a line whose first word (up to the first space) is "some" or "full"
//     must scan as "avg10=%f avg60=%f avg300=%f total=%d" after that word,
//     else the whole file is refused; other lines are ignored, and a
//     repeated line keeps its last values; procfs is the oracle in the tests.

// psiLine is one "some" or "full" line: averages in percent, total in µs.
type psiLine struct {
	Avg10, Avg60, Avg300 float64
	Total                uint64
}

// PSIStats is a parsed pressure file; a line the file lacks is absent.
type PSIStats struct {
	Some, Full       psiLine
	HasSome, HasFull bool
}

// ParsePSI fills st from a /proc/pressure file's text (rules above).
func ParsePSI(data []byte, st *PSIStats) error {
	*st = PSIStats{}
	for len(data) > 0 {
		line, rest := nextTextLine(data)
		data = rest
		word, after := line, []byte(nil)
		for i, c := range line {
			if c == ' ' {
				word, after = line[:i], line[i+1:]
				break
			}
		}
		var l *psiLine
		switch string(word) {
		case "some":
			l, st.HasSome = &st.Some, true
		case "full":
			l, st.HasFull = &st.Full, true
		default:
			continue
		}
		if !parsePSIFields(after, l) {
			if err := scanPSILine(line, string(word), l); err != nil {
				return fmt.Errorf("pressure: %q: %w", line, err)
			}
		}
	}
	return nil
}

// scanPSILine reads a line not in the kernel's exact form with fmt.Sscanf,
// as procfs did.
func scanPSILine(line []byte, word string, l *psiLine) error {
	*l = psiLine{}
	_, err := fmt.Sscanf(string(line), word+" avg10=%f avg60=%f avg300=%f total=%d",
		&l.Avg10, &l.Avg60, &l.Avg300, &l.Total)
	return err
}

// parsePSIFields reads "avg10=A avg60=B avg300=C total=T" exactly as the
// kernel prints it: each average digits, a point and digits (fifteen
// digits at most, which a float64 holds exactly), single spaces, and the
// total's digits followed by anything but a digit. false means the line
// is in another form, not necessarily a wrong one.
func parsePSIFields(b []byte, l *psiLine) bool {
	var ok bool
	if b, ok = cutLiteral(b, "avg10="); !ok {
		return false
	}
	if l.Avg10, b, ok = parsePSIAvg(b); !ok {
		return false
	}
	if b, ok = cutLiteral(b, " avg60="); !ok {
		return false
	}
	if l.Avg60, b, ok = parsePSIAvg(b); !ok {
		return false
	}
	if b, ok = cutLiteral(b, " avg300="); !ok {
		return false
	}
	if l.Avg300, b, ok = parsePSIAvg(b); !ok {
		return false
	}
	if b, ok = cutLiteral(b, " total="); !ok {
		return false
	}
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	// What follows the digits is ignored, as fmt.Sscanf ignores it.
	l.Total, ok = parseUint(b[:n])
	return ok
}

// cutLiteral removes prefix s from b.
func cutLiteral(b []byte, s string) ([]byte, bool) {
	if len(b) < len(s) || string(b[:len(s)]) != s {
		return b, false
	}
	return b[len(s):], true
}

// pow10 are the exact powers of ten a float64 holds.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parsePSIAvg reads "digits.digits" with at most fifteen digits in all.
// The digits make an integer below 2^53 and the divisor is an exact power
// of ten, so the one rounding of the division gives the nearest float64 to
// the decimal: the value strconv.ParseFloat (and so fmt.Sscanf) gives.
func parsePSIAvg(b []byte) (float64, []byte, bool) {
	var m uint64
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		m = m*10 + uint64(b[i]-'0')
		i++
	}
	if i == 0 || i == len(b) || b[i] != '.' {
		return 0, b, false
	}
	j := i + 1
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		m = m*10 + uint64(b[j]-'0')
		j++
	}
	frac := j - i - 1
	if frac == 0 || i+frac > 15 {
		return 0, b, false
	}
	return float64(m) / pow10[frac], b[j:], true
}
