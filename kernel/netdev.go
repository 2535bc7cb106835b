package kernel

import "bytes"

// NetDevColumns is the number of counters on a /proc/net/dev line: eight
// receive columns, then eight transmit columns.
const NetDevColumns = 16

// NetDevLine is one interface's line of /proc/net/dev. name points into the
// text it was parsed from: it is valid until that buffer is read again.
type NetDevLine struct {
	Name []byte
	V    [NetDevColumns]uint64
}

// ParseNetDev parses /proc/net/dev into lines (its storage reused), in file
// order. procfs has a parser, but it indexes the sixteen columns without
// counting them (a truncated line panics), one bad line fails the whole
// file, and it allocates every line's fields each second; here a bad line
// is skipped and counted in bad, every other interface is still returned,
// and nothing is allocated once lines has grown to the interface count.
//
// The interface name ends at the first colon: the kernel forbids colons in
// names, and a large first counter may follow the colon with no space
// ("eth0:123456789 ..."). Lines without a colon are the two heading lines.
//
// A name listed twice (only a damaged file does that) is returned twice:
// the caller, which knows its interfaces, keeps the first.
func ParseNetDev(data []byte, lines []NetDevLine) (_ []NetDevLine, bad int) {
	lines = lines[:0]
	for len(data) > 0 {
		var raw []byte
		raw, data = nextLine(data)
		colon := bytes.IndexByte(raw, ':')
		if colon < 0 {
			continue
		}
		name := bytes.TrimSpace(raw[:colon])
		lines = append(lines, NetDevLine{Name: name})
		if !validNetDevName(name) || !parseNetDevCounters(raw[colon+1:], &lines[len(lines)-1].V) {
			lines = lines[:len(lines)-1]
			bad++
		}
	}
	return lines, bad
}

// parseNetDevCounters reads the sixteen counters after an interface's
// colon: sixteen decimal fields, or false. Columns a future kernel adds
// after them are ignored, as pmdalinux (proc_net_dev.c) reads the ones it
// knows.
func parseNetDevCounters(rest []byte, v *[NetDevColumns]uint64) bool {
	for i := range v {
		var f []byte
		if f, rest = NextWord(rest); f == nil {
			return false
		}
		n, ok := ParseDecimal(f)
		if !ok {
			return false
		}
		v[i] = n
	}
	return true
}

// validNetDevName rejects what the kernel never names an interface. The
// name becomes a path below /sys/class/net, so "..", "." and "/" must never
// get through even from a damaged file.
func validNetDevName(name []byte) bool {
	return len(name) > 0 && string(name) != "." && string(name) != ".." &&
		bytes.IndexAny(name, "/ \t") < 0
}
