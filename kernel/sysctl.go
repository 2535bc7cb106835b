package kernel

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseNumbers reads the whitespace-separated decimal numbers of a small
// /proc/sys file (fs/file-nr "967 0 2466170", fs/dentry-state, random/
// entropy_avail) into out, reused. proc(5) documents each file's fields;
// a field that is not an unsigned decimal is an error, as the kernel
// writes none.
func ParseNumbers(data []byte, out []uint64) ([]uint64, error) {
	out = out[:0]
	for rest := data; ; {
		var w []byte
		w, rest = NextWord(rest)
		if w == nil {
			return out, nil
		}
		v, ok := ParseDecimal(w)
		if !ok {
			return out, fmt.Errorf("not a number: %q", w)
		}
		out = append(out, v)
	}
}

// LockCounts are the file locks of /proc/locks by kind and mode, as
// pmdalinux's vfs.locks.* count them.
type LockCounts struct {
	Posix, Flock, Lease struct{ Read, Write uint64 }
}

// ParseLocks counts the held locks of /proc/locks: one line per lock,
// "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (proc(5)). Lines
// that begin with "->" after the number are requests waiting on the lock
// before them, not locks held, and are left out; an open file
// description lock (OFDLCK) is a POSIX record lock owned by a file
// description rather than a process, and counts as one.
func ParseLocks(data []byte, c *LockCounts) {
	*c = LockCounts{}
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextTextLine(rest)
		_, fields := NextWord(line) // the "N:" ordinal
		kind, fields := NextWord(fields)
		if string(kind) == "->" {
			continue
		}
		_, fields = NextWord(fields) // ADVISORY or MANDATORY
		mode, _ := NextWord(fields)
		var k *struct{ Read, Write uint64 }
		switch string(kind) {
		case "POSIX", "OFDLCK":
			k = &c.Posix
		case "FLOCK":
			k = &c.Flock
		case "LEASE", "DELEG":
			k = &c.Lease
		default:
			continue
		}
		switch string(mode) {
		case "READ":
			k.Read++
		case "WRITE":
			k.Write++
		}
	}
}

// ParseSockstat reads /proc/net/sockstat or sockstat6: one line per
// protocol, "TCP: inuse 4 orphan 0 tw 0 alloc 6 mem 1", name and value
// pairs after the protocol and its colon. fn gets each pair; the count of
// values that are not numbers is returned.
func ParseSockstat(data []byte, fn func(proto, name []byte, v uint64)) (bad int) {
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextTextLine(rest)
		proto, fields := NextWord(line)
		if len(proto) < 2 || proto[len(proto)-1] != ':' {
			continue
		}
		proto = proto[:len(proto)-1]
		for {
			var name, val []byte
			name, fields = NextWord(fields)
			val, fields = NextWord(fields)
			if name == nil || val == nil {
				break
			}
			v, ok := ParseDecimal(val)
			if !ok {
				bad++
				continue
			}
			fn(proto, name, v)
		}
	}
	return bad
}

// ParseCPUList reads a CPU list as sysfs writes it ("0-3,8,10-11"), the
// format of cpulist files (Documentation/ABI cpu lists).
func ParseCPUList(data []byte) ([]int, bool) {
	var cpus []int
	text := strings.TrimSpace(string(data))
	if text == "" {
		return nil, true
	}
	for _, part := range strings.Split(text, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || b-a > 1<<16 {
			return nil, false
		}
		for cpu := a; cpu <= b; cpu++ {
			cpus = append(cpus, cpu)
		}
	}
	return cpus, true
}
