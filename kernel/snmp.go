package kernel

import "bytes"

// ParseSNMP reads the "Proto: names" / "Proto: values" line pairs of
// /proc/net/snmp and /proc/net/netstat and calls fn for every pair, with
// its protocol ("Tcp", "TcpExt", "Udp") and the text after the colons of
// the heading and the values lines (split them with SNMPValues); fn
// returns how many values it skipped. Values are matched to names by
// position in the heading line, never by a fixed index: fields come and go
// between kernels. Everything passed to fn points into data.
//
// procfs parses these files only per process, as floats (which lose
// precision above 2^53), and knows a fixed list of fields; so we do it
// here, without allocating.
//
// A malformed pair is skipped and counted in bad: a heading without values
// or values without a heading. SNMPValues counts the rest: value and name
// counts that differ (the positions cannot be trusted), and single values
// that are not numbers.
func ParseSNMP(data []byte, fn func(proto, names, values []byte) (bad int)) (bad int) {
	var head, headProto []byte // the pending heading
	pending := false
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		proto, rest, ok := bytes.Cut(line, []byte{':'})
		if pending && ok && bytes.Equal(proto, headProto) {
			bad += fn(proto, head, rest)
			pending = false
			continue
		}
		if pending { // a heading not followed by its values
			bad++
			pending = false
		}
		first, _ := NextWord(rest)
		if !ok || len(proto) == 0 || (first != nil && snmpNumber(first)) {
			bad++ // not a "Proto:" line, or values whose heading is missing
			continue
		}
		head, headProto, pending = rest, proto, true
	}
	if pending {
		bad++
	}
	return bad
}

// SNMPValues splits a values line whose heading has n names, and calls fn
// with each value and its position. When the counts differ no value can be
// placed: nothing is called, and bad is 1. A value that is not a number is
// skipped alone and counted. A negative value (Tcp MaxConn is -1, "no
// limit") is kept in two's complement, as pmdalinux's strtoull does.
func SNMPValues(n int, values []byte, fn func(col int, v uint64)) (bad int) {
	if SNMPFieldCount(values) != n {
		return 1
	}
	col := 0
	for i := 0; i < len(values); {
		if asciiSpaces[values[i]] {
			i++
			continue
		}
		v, ok, end := snmpScan(values, i)
		if ok {
			fn(col, v)
		} else {
			bad++
		}
		col++
		i = end
	}
	return bad
}

// SNMPFieldCount counts the fields of a heading or values line.
func SNMPFieldCount(text []byte) int {
	n := 0
	inField := false
	for _, c := range text {
		space := asciiSpaces[c]
		if !space && !inField {
			n++
		}
		inField = !space
	}
	return n
}

// snmpScan reads the field that starts at b[i] (not a space) and ends
// before the next space or at the end, returning where it ends: a decimal
// that fits 64 bits unsigned, or one with a '+' or '-' that fits 64 bits
// signed, as two's complement (what strconv.ParseUint, failing that
// ParseInt, accept). One pass, as this runs for every value of the files.
func snmpScan(b []byte, i int) (v uint64, ok bool, end int) {
	sign := b[i]
	if sign == '+' || sign == '-' {
		i++
	}
	start := i
	ok = true
	for ; i < len(b) && !asciiSpaces[b[i]]; i++ {
		d := uint64(b[i] - '0')
		switch {
		case d > 9:
			ok = false
		case v > (1<<64-1)/10 || v == (1<<64-1)/10 && d > (1<<64-1)%10:
			ok = false // beyond 64 bits
		default:
			v = v*10 + d
		}
	}
	if i == start {
		return 0, false, i
	}
	switch sign {
	case '-':
		return -v, ok && v <= 1<<63, i
	case '+':
		return v, ok && v < 1<<63, i
	}
	return v, ok, i
}

// snmpValue reads one field as snmpScan does.
func snmpValue(text []byte) (uint64, bool) {
	if len(text) == 0 {
		return 0, false
	}
	v, ok, end := snmpScan(text, 0)
	return v, ok && end == len(text)
}

// snmpNumber tells a values line from a heading by its first field.
func snmpNumber(field []byte) bool {
	_, ok := snmpValue(field)
	return ok
}
