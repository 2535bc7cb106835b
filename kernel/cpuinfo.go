package kernel

import "bytes"

// ParseCPUInfo walks /proc/cpuinfo: one block of "key<tabs>: value" lines
// per processor, blocks apart by a blank line, each starting with
// "processor : N" on x86 (and arm64). fn gets each line of a block after
// its processor line, with the key's trailing blanks and the value's
// surrounding blanks cut. It returns how many processors it saw.
func ParseCPUInfo(data []byte, fn func(cpu int, key, value []byte)) int {
	cpu, n := -1, 0
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextTextLine(rest)
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key, value = bytes.TrimRight(key, " \t"), bytes.TrimSpace(value)
		if string(key) == "processor" {
			v, ok := ParseDecimal(value)
			if !ok || v > 1<<20 {
				cpu = -1
				continue
			}
			cpu = int(v)
			n++
			continue
		}
		if cpu >= 0 {
			fn(cpu, key, value)
		}
	}
	return n
}
