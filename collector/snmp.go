package collector

import (
	"strconv"
	"strings"
)

// parseSNMP reads the "Proto: names" / "Proto: values" line pairs of
// /proc/net/snmp and /proc/net/netstat and calls fn for every value, with
// its protocol ("Tcp", "TcpExt", "Udp") and field name. Values are matched
// to names by position in the heading line, never by a fixed index: fields
// come and go between kernels.
//
// procfs parses these files only per process, as floats (which lose
// precision above 2^53), and knows a fixed list of fields; so we do it here.
//
// A malformed pair is skipped and counted in bad: a heading without values
// or values without a heading, or value and name counts that differ (the
// positions cannot be trusted). A single value that is not a number is
// skipped alone. A negative value (Tcp MaxConn is -1, "no limit") is kept
// in two's complement, as pmdalinux's strtoull does.
func parseSNMP(data []byte, fn func(proto, field string, v uint64)) (bad int) {
	var head []string // the names of the pending heading
	var headProto string
	pending := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		proto, rest, ok := strings.Cut(line, ":")
		fields := strings.Fields(rest)
		if pending && ok && proto == headProto {
			bad += snmpValues(proto, head, fields, fn)
			pending = false
			continue
		}
		if pending { // a heading not followed by its values
			bad++
			pending = false
		}
		if !ok || proto == "" || (len(fields) > 0 && snmpNumber(fields[0])) {
			bad++ // not a "Proto:" line, or values whose heading is missing
			continue
		}
		head, headProto, pending = fields, proto, true
	}
	if pending {
		bad++
	}
	return bad
}

// snmpValues pairs a values line with its heading's names.
func snmpValues(proto string, names, values []string, fn func(proto, field string, v uint64)) (bad int) {
	if len(values) != len(names) {
		return 1
	}
	for i, text := range values {
		v, ok := snmpValue(text)
		if !ok {
			bad++
			continue
		}
		fn(proto, names[i], v)
	}
	return bad
}

func snmpValue(text string) (uint64, bool) {
	if v, err := strconv.ParseUint(text, 10, 64); err == nil {
		return v, true
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return uint64(v), err == nil
}

// snmpNumber tells a values line from a heading by its first field.
func snmpNumber(field string) bool {
	_, ok := snmpValue(field)
	return ok
}
