package kernel

import (
	"slices"
	"testing"
)

func TestParseNumbers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []uint64
		bad  bool
	}{
		{"967\t0\t2466170\n", []uint64{967, 0, 2466170}, false},
		{"89606\t88027\t45\t0\t62\t0\n", []uint64{89606, 88027, 45, 0, 62, 0}, false},
		{"256\n", []uint64{256}, false},
		{"", nil, false},
		{"12 x\n", []uint64{12}, true},
		{"-1\n", nil, true},
	} {
		got, err := ParseNumbers([]byte(c.in), nil)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("ParseNumbers(%q) = %v, %v", c.in, got, err)
		}
	}
}

func TestParseLocks(t *testing.T) {
	data := "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 0 EOF\n" +
		"1: -> POSIX  ADVISORY  WRITE 1240 08:01:5678 0 EOF\n" +
		"2: FLOCK  ADVISORY  WRITE 830 00:19:1 0 EOF\n" +
		"3: FLOCK  ADVISORY  READ 831 00:19:2 0 EOF\n" +
		"4: OFDLCK ADVISORY  READ -1 08:01:77 0 100\n" +
		"5: LEASE  ACTIVE    READ 900 08:01:99 0 EOF\n" +
		"6: ODD line\n"
	var c LockCounts
	ParseLocks([]byte(data), &c)
	if c.Posix.Write != 1 || c.Posix.Read != 1 || c.Flock.Write != 1 || c.Flock.Read != 1 ||
		c.Lease.Read != 1 || c.Lease.Write != 0 {
		t.Errorf("ParseLocks = %+v", c)
	}
}

func TestParseSockstat(t *testing.T) {
	data := "sockets: used 137\nTCP: inuse 4 orphan 0 tw 2 alloc 6 mem 1\nUDP: inuse 2 mem x\nFRAG: inuse 0 memory 0\nodd\n"
	got := map[string]uint64{}
	bad := ParseSockstat([]byte(data), func(proto, name []byte, v uint64) { got[string(proto)+"."+string(name)] = v })
	want := map[string]uint64{"sockets.used": 137, "TCP.inuse": 4, "TCP.orphan": 0, "TCP.tw": 2, "TCP.alloc": 6,
		"TCP.mem": 1, "UDP.inuse": 2, "FRAG.inuse": 0, "FRAG.memory": 0}
	if bad != 1 || len(got) != len(want) {
		t.Errorf("ParseSockstat: %v, %d bad", got, bad)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
}
