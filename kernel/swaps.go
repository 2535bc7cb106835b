package kernel

import (
	"bufio"
	"fmt"
)

// /proc/swaps used to be read with procfs's Swaps(), which allocates a
// struct and strings for every area and a scanner for the file on each
// call. This parser keeps the areas in a reused slice, their name and type
// pointing into the file's text. It accepts what procfs accepted: the
// first line (the header) is skipped whatever it says; every other line
// needs at least five fields (split as strings.Fields splits), the last
// three strconv.Atoi numbers; only the first MiB is read; and a line of
// 64 KiB or more, where bufio.Scanner failed, refuses the file.

// SwapArea is one /proc/swaps line. name and typ alias the parsed text:
// they are valid until the buffer is reused.
type SwapArea struct {
	Name, Type           []byte
	Size, Used, Priority int64
}

// ParseSwaps returns the areas of /proc/swaps's text, reusing areas.
func ParseSwaps(data []byte, areas []SwapArea) ([]SwapArea, error) {
	areas = areas[:0]
	data = truncateProcfs(data)
	for first := true; len(data) > 0; first = false {
		line, rest, tooLong := nextScanLine(data)
		if tooLong {
			return areas[:0], bufio.ErrTooLong
		}
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
