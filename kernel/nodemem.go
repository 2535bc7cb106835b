package kernel

// A NUMA node's memory as /sys/devices/system/node/nodeN/meminfo prints
// it: /proc/meminfo's lines with a "Node N " prefix ("Node 0 MemTotal:
// 5597388 kB"); the huge page lines are counts without a unit.

// ParseNodeMeminfo calls fn with each line's name (without its colon)
// and value; it returns how many lines it could not read.
func ParseNodeMeminfo(data []byte, fn func(name []byte, v uint64)) (bad int) {
	for len(data) > 0 {
		var line []byte
		line, data = nextTextLine(data)
		var f [5][]byte
		n := fieldsOf(line, f[:])
		if n == 0 {
			continue
		}
		if (n != 4 && n != 5) || string(f[0]) != "Node" || len(f[2]) < 2 || f[2][len(f[2])-1] != ':' {
			bad++
			continue
		}
		v, ok := ParseDecimal(f[3])
		if !ok || (n == 5 && string(f[4]) != "kB") {
			bad++
			continue
		}
		fn(f[2][:len(f[2])-1], v)
	}
	return bad
}
