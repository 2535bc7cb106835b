package kernel

// SysV IPC objects as /proc/sysvipc/msg, sem and shm list them: a header
// naming the columns, then one object a line. The columns are found by
// their names, so a kernel that adds one (shm gained rss and swap in 4.x)
// changes nothing.

// IPCTable sums named columns over the objects of one /proc/sysvipc file
// and, when asked (Keep), keeps other named columns of each object.
type IPCTable struct {
	Objects uint64
	Sums    []uint64 // one per column asked for, in order
	names   []string
	round   []uint64 // per column: each value rounded up to a multiple, 0 none
	cols    []int    // their positions in the header, -1 when absent
	fields  [][]byte
	kept    ipcKept
}

// ipcKept is what Keep asks for and what the last Parse kept of it.
type ipcKept struct {
	names []string
	cols  []int    // positions in the header, -1 when absent
	limit int      // objects kept at most
	cells [][]byte // len(names) a kept object, nil where absent
}

// NewIPCTable sums the columns named (e.g. "cbytes", "qnum").
func NewIPCTable(columns ...string) *IPCTable {
	n := len(columns)
	return &IPCTable{Sums: make([]uint64, n), cols: make([]int, n), names: columns, round: make([]uint64, n)}
}

// RoundUp makes column i count each object's value rounded up to a
// multiple of unit: a shared memory segment holds whole pages, and
// shmctl(SHM_INFO)'s total, which pmdalinux reports, counts pages.
func (t *IPCTable) RoundUp(i int, unit uint64) *IPCTable {
	t.round[i] = unit
	return t
}

// Keep makes Parse keep the named columns of the first limit objects, for
// a caller that publishes each object; the sums still count them all.
func (t *IPCTable) Keep(limit int, columns ...string) *IPCTable {
	t.kept = ipcKept{names: columns, cols: make([]int, len(columns)), limit: limit}
	return t
}

// Kept is the number of objects the last Parse kept: at most the limit.
func (t *IPCTable) Kept() int {
	if len(t.kept.names) == 0 {
		return 0
	}
	return len(t.kept.cells) / len(t.kept.names)
}

// Cell returns column j, in Keep's order, of kept object i: nil when the
// file has no such column or the object's line is short of it. It points
// into the data parsed and is valid while that is.
func (t *IPCTable) Cell(i, j int) []byte {
	return t.kept.cells[i*len(t.kept.names)+j]
}

// reset forgets the last read: each file's own header places the columns.
func (t *IPCTable) reset() {
	t.Objects = 0
	for i := range t.Sums {
		t.Sums[i], t.cols[i] = 0, -1
	}
	for j := range t.kept.cols {
		t.kept.cols[j] = -1
	}
	t.kept.cells = t.kept.cells[:0]
}

// Parse reads a whole file.
func (t *IPCTable) Parse(data []byte) {
	t.reset()
	header := true
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextTextLine(rest)
		if header {
			t.header(line)
			header = false
			continue
		}
		t.row(line)
	}
}

// Has reports whether column i was in the file's header.
func (t *IPCTable) Has(i int) bool { return t.cols[i] >= 0 }

func (t *IPCTable) header(line []byte) {
	for pos, rest := 0, line; ; pos++ {
		var w []byte
		if w, rest = NextWord(rest); w == nil {
			return
		}
		place(string(w), pos, t.names, t.cols)
		place(string(w), pos, t.kept.names, t.kept.cols)
	}
}

// place records pos as the position of each of names that is word.
func place(word string, pos int, names []string, cols []int) {
	for i, name := range names {
		if word == name {
			cols[i] = pos
		}
	}
}

func (t *IPCTable) row(line []byte) {
	t.fields = t.fields[:0]
	for rest := line; ; {
		var w []byte
		if w, rest = NextWord(rest); w == nil {
			break
		}
		t.fields = append(t.fields, w)
	}
	if len(t.fields) == 0 {
		return
	}
	t.Objects++
	t.keep()
	for i, c := range t.cols {
		if c >= 0 && c < len(t.fields) {
			if v, ok := ParseDecimal(t.fields[c]); ok {
				if u := t.round[i]; u > 0 {
					v = (v + u - 1) / u * u
				}
				t.Sums[i] += v
			}
		}
	}
}

// keep adds the row's kept columns, while under the limit.
func (t *IPCTable) keep() {
	if len(t.kept.names) == 0 || t.Kept() >= t.kept.limit {
		return
	}
	for _, c := range t.kept.cols {
		var cell []byte
		if c >= 0 && c < len(t.fields) {
			cell = t.fields[c]
		}
		t.kept.cells = append(t.kept.cells, cell)
	}
}
