package kernel

// SysV IPC objects as /proc/sysvipc/msg, sem and shm list them: a header
// naming the columns, then one object a line. The columns are found by
// their names, so a kernel that adds one (shm gained rss and swap in 4.x)
// changes nothing.

// IPCTable sums named columns over the objects of one /proc/sysvipc file.
type IPCTable struct {
	Objects uint64
	Sums    []uint64 // one per column asked for, in order
	names   []string
	round   []uint64 // per column: each value rounded up to a multiple, 0 none
	cols    []int    // their positions in the header, -1 when absent
	fields  [][]byte
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

// reset forgets the last read: each file's own header places the columns.
func (t *IPCTable) reset() {
	t.Objects = 0
	for i := range t.Sums {
		t.Sums[i], t.cols[i] = 0, -1
	}
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
		for i, name := range t.names {
			if string(w) == name {
				t.cols[i] = pos
			}
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
