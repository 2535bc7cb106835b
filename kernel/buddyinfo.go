package kernel

// /proc/buddyinfo: a line per NUMA node and zone, "Node 0, zone   Normal
// 757 5857 ...": the free blocks of each order (2^order pages) the buddy
// allocator holds, order 0 first (mm/vmstat.c, frag_show_print).

// BuddyZone is one line.
type BuddyZone struct {
	Node  int
	Zone  []byte   // points into the data parsed
	Free  []uint64 // free blocks by order
	freeS [16]uint64
}

// ParseBuddyinfo appends each line to out (reused) and returns it with how
// many lines it could not read.
func ParseBuddyinfo(data []byte, out []BuddyZone) ([]BuddyZone, int) {
	out = out[:0]
	bad := 0
	for len(data) > 0 {
		var line []byte
		line, data = nextTextLine(data)
		var f [20][]byte
		n := fieldsOf(line, f[:])
		if n == 0 {
			continue
		}
		if n < 5 || n > 4+16 || string(f[0]) != "Node" || string(f[2]) != "zone" || len(f[1]) < 2 ||
			f[1][len(f[1])-1] != ',' {
			bad++
			continue
		}
		node, ok := ParseDecimal(f[1][:len(f[1])-1])
		z := BuddyZone{Node: int(node), Zone: f[3]}
		for i := 4; ok && i < n; i++ {
			z.freeS[i-4], ok = ParseDecimal(f[i])
		}
		if !ok {
			bad++
			continue
		}
		out = append(out, z)
		last := &out[len(out)-1]
		last.Free = last.freeS[:n-4]
	}
	return out, bad
}
