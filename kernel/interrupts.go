package kernel

import (
	"bytes"
	"fmt"
)

// IRQTable is /proc/interrupts or /proc/softirqs: a header naming the CPU
// columns ("CPU0 CPU1 ...", online CPUs only, so the numbers may skip),
// then one line per interrupt source: its label and a colon, one count
// per CPU column, and for /proc/interrupts the controller and device
// names, which are not read. Lines with a single count (ERR, MIS on x86)
// are kept as Single; an ERR or MIS line indented (a host of 1000 IRQs or
// more) is a per-CPU line too, as pmdalinux lists it. Storage is reused: Names point into the data read
// and are valid until the next parse.
type IRQTable struct {
	CPUs   []int      // the CPU number of each column
	Names  [][]byte   // each per-CPU line's label
	Texts  [][]byte   // and what follows its counts (controller, device)
	Counts []uint64   // len(Names) x len(CPUs), line by line
	Single []IRQCount // lines with one count: ERR, MIS
}

// isErrorCount reports whether label names a count of the whole system
// pmdalinux reads as such (ERR, Err, BAD: errors; MIS: missed).
func isErrorCount(label []byte) bool {
	switch string(label) {
	case "ERR", "Err", "BAD", "MIS":
		return true
	}
	return false
}

// IRQCount is a line that has one count for the whole system.
type IRQCount struct {
	Name  []byte
	Count uint64
}

// Line returns the per-CPU counts of line i.
func (t *IRQTable) Line(i int) []uint64 {
	n := len(t.CPUs)
	return t.Counts[i*n : (i+1)*n]
}

// ParseIRQTable parses the text of either file into t. A line with fewer
// counts than CPUs (other than a single one) gives zeros for the missing
// columns: a count not printed is no event seen.
func ParseIRQTable(data []byte, t *IRQTable) error {
	t.CPUs, t.Names, t.Texts, t.Counts, t.Single = t.CPUs[:0], t.Names[:0], t.Texts[:0], t.Counts[:0], t.Single[:0]
	header, rest := nextTextLine(data)
	for w, r := NextWord(header); w != nil; w, r = NextWord(r) {
		n, ok := ParseDecimal(bytes.TrimPrefix(w, []byte("CPU")))
		if !ok || !bytes.HasPrefix(w, []byte("CPU")) {
			return fmt.Errorf("not a CPU column in the header: %q", w)
		}
		t.CPUs = append(t.CPUs, int(n))
	}
	if len(t.CPUs) == 0 {
		return fmt.Errorf("no CPU columns in the header %q", header)
	}
	for len(rest) > 0 {
		var line []byte
		line, rest = nextTextLine(rest)
		t.parseLine(line)
	}
	return nil
}

// parseLine reads "label: n n n ... description".
func (t *IRQTable) parseLine(line []byte) {
	label, counts := NextWord(line)
	if len(label) < 2 || label[len(label)-1] != ':' {
		return
	}
	label = label[:len(label)-1]
	start, n := len(t.Counts), 0
	for n < len(t.CPUs) {
		v, r, ok := NextDecimal(counts)
		if !ok {
			break
		}
		t.Counts, counts, n = append(t.Counts, v), r, n+1
	}
	switch {
	case n == 0:
		return
	case n == 1 && isErrorCount(label):
		t.Single = append(t.Single, IRQCount{Name: label, Count: t.Counts[start]})
		if line[0] == ' ' || line[0] == '\t' {
			// The kernel pads the labels to the width of the highest
			// IRQ number, so a host of 1000 or more lists " ERR:".
			// pmdalinux then misses it (its sscanf wants "ERR:" first)
			// and lists it as an interrupt: so does the table.
			break
		}
		t.Counts = t.Counts[:start]
		return
	case n == 1 && len(t.CPUs) > 1:
		t.Single = append(t.Single, IRQCount{Name: label, Count: t.Counts[start]})
		t.Counts = t.Counts[:start]
		return
	}
	for ; n < len(t.CPUs); n++ {
		t.Counts = append(t.Counts, 0)
	}
	t.Names = append(t.Names, label)
	t.Texts = append(t.Texts, bytes.TrimSpace(counts))
}
