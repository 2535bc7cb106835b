package collector

import (
	"strconv"
	"strings"
)

// netDevColumns is the number of counters on a /proc/net/dev line: eight
// receive columns, then eight transmit columns.
const netDevColumns = 16

// netDevLine is one interface's line of /proc/net/dev.
type netDevLine struct {
	name string
	v    [netDevColumns]uint64
}

// parseNetDev parses /proc/net/dev. procfs has a parser, but it indexes the
// sixteen columns without counting them (a truncated line panics) and one
// bad line fails the whole file; here a bad line is skipped and counted in
// bad, and every other interface is still returned, in file order.
//
// The interface name ends at the first colon: the kernel forbids colons in
// names, and a large first counter may follow the colon with no space
// ("eth0:123456789 ..."). Lines without a colon are the two heading lines.
func parseNetDev(data []byte) (lines []netDevLine, bad int) {
	seen := map[string]bool{}
	for _, raw := range strings.Split(string(data), "\n") {
		name, rest, ok := strings.Cut(raw, ":")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		l, ok := parseNetDevCounters(name, rest)
		if !ok || seen[name] {
			bad++
			continue
		}
		seen[name] = true
		lines = append(lines, l)
	}
	return lines, bad
}

// parseNetDevCounters reads the sixteen counters after an interface's colon.
func parseNetDevCounters(name, rest string) (netDevLine, bool) {
	l := netDevLine{name: name}
	if !validNetDevName(name) {
		return l, false
	}
	fields := strings.Fields(rest)
	if len(fields) != netDevColumns {
		return l, false
	}
	for i, f := range fields {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return l, false
		}
		l.v[i] = v
	}
	return l, true
}

// validNetDevName rejects what the kernel never names an interface. The
// name becomes a path below /sys/class/net, so "..", "." and "/" must never
// get through even from a damaged file.
func validNetDevName(name string) bool {
	return name != "" && name != "." && name != ".." &&
		!strings.ContainsAny(name, "/ \t")
}
