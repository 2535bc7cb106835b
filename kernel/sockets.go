package kernel

// Socket tables: /proc/net/tcp, udp, udp6, raw, raw6 and unix list one
// socket a line after a header line. pmdalinux counts them by state; the
// kernel's documentation (networking/proc_net_tcp.rst) gives the columns.

// TCPStates counts /proc/net/tcp's sockets by state, indexed by the
// kernel's TCP state number (include/net/tcp_states.h: 1 ESTABLISHED ...
// 11 CLOSING); index 0 and states past 11 are not counted.
type TCPStates [12]uint64

// hexState parses the "st" column: the fourth field, "0A". The header's
// "st" is not a hex number and is passed over.
func hexState(line []byte) (uint64, bool) {
	var f []byte
	rest := line
	for i := 0; i < 4; i++ {
		f, rest = NextWord(rest)
	}
	return parseHex(f)
}

// AddTCP counts one line of /proc/net/tcp.
func (s *TCPStates) AddTCP(line []byte) {
	if st, ok := hexState(line); ok && st > 0 && st < uint64(len(s)) {
		s[st]++
	}
}

// UDPCounts are the UDP sockets as pmdalinux counts them: connected ones
// (state 1, ESTABLISHED) and bound, unconnected ones, which the kernel
// shows as 7 (CLOSE) and pmdalinux calls listening.
type UDPCounts struct{ Established, Listen uint64 }

// AddUDP counts one line of /proc/net/udp or udp6.
func (c *UDPCounts) AddUDP(line []byte) {
	switch st, _ := hexState(line); st {
	case 1:
		c.Established++
	case 7:
		c.Listen++
	}
}

// UnixCounts are the Unix domain sockets of /proc/net/unix: "Num RefCount
// Protocol Flags Type St Inode Path", Type 1 a stream, 2 a datagram
// socket, St 1 unconnected (a listener's), 3 connected.
type UnixCounts struct{ Datagram, Stream, StreamListen, StreamEstablished uint64 }

// AddUnix counts one line of /proc/net/unix.
func (c *UnixCounts) AddUnix(line []byte) {
	var f []byte
	rest := line
	for i := 0; i < 5; i++ {
		f, rest = NextWord(rest)
	}
	typ, ok := parseHex(f)
	if !ok {
		return
	}
	f, _ = NextWord(rest)
	st, ok := parseHex(f)
	if !ok {
		return
	}
	switch typ {
	case 2:
		c.Datagram++
	case 1:
		c.Stream++
		switch st {
		case 1:
			c.StreamListen++
		case 3:
			c.StreamEstablished++
		}
	}
}

// parseHex parses an unsigned hexadecimal field of at most 16 digits.
func parseHex(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint64(c)
	}
	return v, true
}
