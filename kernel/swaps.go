package kernel

import (
	"fmt"
)

// /proc/swaps (proc(5), mm/swapfile.c's swap_show) is a header line, then
// one line per swap area: filename, type, size and used in kB, priority.
// This parser keeps the areas in a reused slice, their name and type
// pointing into the file's text: the first line (the header) is skipped
// whatever it says; every other line needs at least five fields (fields
// after them are ignored), the last three decimal integers, else the file
// is refused, so that a damaged file never makes areas vanish. procfs's
// Swaps() is its oracle in the tests.

// SwapArea is one /proc/swaps line. name and typ alias the parsed text:
// they are valid until the buffer is reused.
type SwapArea struct {
	Name, Type           []byte
	Size, Used, Priority int64
}

// ParseSwaps returns the areas of /proc/swaps's text, reusing areas.
func ParseSwaps(data []byte, areas []SwapArea) ([]SwapArea, error) {
	areas = areas[:0]
	for first := true; len(data) > 0; first = false {
		line, rest := nextTextLine(data)
		data = rest
		if first {
			continue // the header
		}
		var f [5][]byte
		if n := fieldsOf(line, f[:]); n < 5 {
			return areas[:0], fmt.Errorf("swaps: too few fields in %q", line)
		}
		a := SwapArea{Name: f[0], Type: f[1]}
		var ok [3]bool
		a.Size, ok[0] = parseAtoi(f[2])
		a.Used, ok[1] = parseAtoi(f[3])
		a.Priority, ok[2] = parseAtoi(f[4])
		if !ok[0] || !ok[1] || !ok[2] {
			return areas[:0], fmt.Errorf("swaps: invalid number in %q", line)
		}
		areas = append(areas, a)
	}
	return areas, nil
}
