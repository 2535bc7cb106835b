package kernel

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// diskstatsLineByFields is the straightforward parser the one-pass one
// replaced: find each field, then read its digits. Both must agree on
// every line, errors included.
func diskstatsLineByFields(line []byte, d *Diskstats) (int, error) {
	counters := [...]*uint64{&d.ReadIOs, &d.ReadMerges, &d.ReadSectors, &d.ReadTicks,
		&d.WriteIOs, &d.WriteMerges, &d.WriteSectors, &d.WriteTicks, &d.InProgress,
		&d.IOTicks, &d.WeightedIOTicks, &d.DiscardIOs, &d.DiscardMerges,
		&d.DiscardSectors, &d.DiscardTicks, &d.FlushIOs, &d.FlushTicks}
	n := 0
	for rest := line; ; n++ {
		var f []byte
		if f, rest = nextField(rest); f == nil || n == 3+len(counters) {
			return n, nil
		}
		if n == 2 {
			d.Name = string(f)
			continue
		}
		v, ok := parseUint(f)
		if !ok || (n < 2 && v > 1<<32-1) {
			return n, fmt.Errorf("bad field %q", f)
		}
		switch n {
		case 0:
			d.Major = uint32(v)
		case 1:
			d.Minor = uint32(v)
		default:
			*counters[n-3] = v
		}
	}
}

func FuzzDiskstatsLineOnePass(f *testing.F) {
	for _, s := range []string{
		"   8       0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21",
		" 259 0 nvme0n1 18446744073709551615 9999999999999999999 10000000000000000000 4",
		"8 0 sda 1 2 3x 4", "4294967296 0 sda 1", "8 0 sda 00000000000000000000000001 2",
		"8\t0\tsda\t1\t\t2", "8 0", "", " ", "8 0 sda 123456789012345678/ 1",
	} {
		f.Add([]byte(s))
	}
	if text, err := os.ReadFile("/proc/diskstats"); err == nil {
		for _, l := range strings.Split(string(text), "\n") {
			f.Add([]byte(l))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var got, want Diskstats
		n1, err1 := parseDiskstatsLine(line, &got, nil, 0)
		n2, err2 := diskstatsLineByFields(line, &want)
		if n1 != n2 || (err1 == nil) != (err2 == nil) || (err1 == nil && got != want) {
			t.Errorf("%q: one pass %d %v %+v; by fields %d %v %+v", line, n1, err1, got, n2, err2, want)
		}
	})
}

func BenchmarkParseDiskstats(b *testing.B) {
	var text strings.Builder
	for i := range 4096 {
		fmt.Fprintf(&text, " 259 %7d nvme%dn1 %d 1234 987654321 4321 %d 5678 123456789 8765 0 765432 1234567 0 0 0 0 1234 56\n",
			i, i, 1000000+i, 2000000+i)
	}
	data := []byte(text.String())
	out, _ := ParseDiskstats(data, nil)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, _ = ParseDiskstats(data, out)
	}
}
