package kernel

import (
	"fmt"
	"testing"
)

func TestParseNetDev(t *testing.T) {
	type want struct {
		name string
		v    [NetDevColumns]uint64
	}
	head := "Inter-|   Receive    |  Transmit\n" +
		" face |bytes    packets|bytes    packets\n"
	for _, c := range []struct {
		name string
		data string
		want []want
		bad  int
	}{
		{"kernel layout",
			head + "    lo:    8521     109    0    0    0     0          0         0     8521     109    0    0    0     0       0          0\n",
			[]want{{"lo", [16]uint64{8521, 109, 0, 0, 0, 0, 0, 0, 8521, 109}}}, 0},
		{"no space after the colon",
			"eth0:123456789012 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
			[]want{{"eth0", [16]uint64{123456789012, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}}, 0},
		{"odd characters and the largest counter",
			"  a.b-c@d_e: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 18446744073709551615\n",
			[]want{{"a.b-c@d_e", [16]uint64{15: 18446744073709551615}}}, 0},
		{"tabs, carriage return and no final newline",
			"\teth1:\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\r",
			[]want{{"eth1", [16]uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}}}, 0},
		{"missing columns skip the line, not the file",
			"  short: 1 2 3\n  ok: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2\n",
			[]want{{"ok", [16]uint64{0: 1, 15: 2}}}, 1},
		{"an extra column is ignored", "  x: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 7\n", []want{{"x", [16]uint64{0: 1, 15: 2}}}, 0},
		{"negative", "  neg: -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 1},
		{"beyond 64 bits", "  huge: 18446744073709551616 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 1},
		{"not a number", "  eth0: 1 2 3 4 5 6 7 8 x 10 11 12 13 14 15 16\n", nil, 1},
		{"a slash in the name", "  a/b: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 1},
		{"a blank in the name", "  a b: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 1},
		{"dot names", "  .: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n ..: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 2},
		{"empty name", "   : 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", nil, 1},
		{"colon only", ":\n", nil, 1},
		{"a repeated name is the caller's to drop",
			" lo: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n lo: 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
			[]want{{"lo", [16]uint64{0: 1}}, {"lo", [16]uint64{0: 2}}}, 0},
		{"headings only", head, nil, 0},
		{"garbage", "no colon here\n\n\x00\xff\n", nil, 0},
		{"empty", "", nil, 0},
	} {
		lines, bad := ParseNetDev([]byte(c.data), nil)
		var got []want
		for _, l := range lines {
			got = append(got, want{string(l.Name), l.V})
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || bad != c.bad {
			t.Errorf("%s: got %v bad %d\nwant %v bad %d", c.name, got, bad, c.want, c.bad)
		}
	}
}

// The lines' storage is reused: a second parse allocates nothing.
func TestParseNetDevReuses(t *testing.T) {
	data := []byte(" lo: 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\neth0: 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
	lines, _ := ParseNetDev(data, nil)
	if n := testing.AllocsPerRun(100, func() { lines, _ = ParseNetDev(data, lines) }); n != 0 {
		t.Errorf("%v allocations per parse", n)
	}
	if len(lines) != 2 || string(lines[1].Name) != "eth0" || lines[1].V[0] != 2 {
		t.Errorf("reused parse gave %v", lines)
	}
}
