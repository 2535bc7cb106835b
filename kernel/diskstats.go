package kernel

import (
	"fmt"
)

// Diskstats is one line of /proc/diskstats, as
// Documentation/admin-guide/iostats.rst describes it: the device's major
// and minor numbers and name, then its counters. Fields says how many
// fields the line had: 14 (every kernel), 18 (4.18 added discards) or 20
// (5.5 added flushes); counters beyond them read 0 and are not published.
type Diskstats struct {
	Major, Minor uint32
	Name         string
	Fields       int
	// Fields 4-14: reads, writes, and the time the device was busy.
	ReadIOs, ReadMerges, ReadSectors, ReadTicks     uint64
	WriteIOs, WriteMerges, WriteSectors, WriteTicks uint64
	InProgress, IOTicks, WeightedIOTicks            uint64
	// Fields 15-18 and 19-20.
	DiscardIOs, DiscardMerges, DiscardSectors, DiscardTicks uint64
	FlushIOs, FlushTicks                                    uint64
}

// ParseDiskstats reads /proc/diskstats text into out (reused). A line with
// fewer than 14 fields is skipped (pmdalinux's proc_partitions.c needs the
// same 14); fields after the twenty we know are ignored; a field that is
// not a number fails the whole file, so that devices never vanish for a
// sample because one line was damaged.
//
// procfs's blockdevice parser, the oracle in the tests, scans each line
// with fmt.Sscanf, which on a host with thousands of devices made the
// parse cost dwarf the kernel's; this parser allocates nothing in steady
// state: a device keeps the name string of its previous sample.
func ParseDiskstats(data []byte, out []Diskstats) ([]Diskstats, error) {
	prev := out
	out = out[:0]
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		var d Diskstats
		n, err := parseDiskstatsLine(line, &d, prev, len(out))
		if err != nil {
			return out, err
		}
		if n >= 14 {
			d.Fields = n
			out = append(out, d)
		}
	}
	return out, nil
}

// parseDiskstatsLine fills d and returns how many fields it read.
func parseDiskstatsLine(line []byte, d *Diskstats, prev []Diskstats, at int) (int, error) {
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
			d.Name = reuseName(f, prev, at)
			continue
		}
		v, ok := parseUint(f)
		if !ok || (n < 2 && v > 1<<32-1) {
			return n, fmt.Errorf("diskstats: bad field %q in %q", f, line)
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

// reuseName returns the previous sample's string for the same device at
// the same position, so steady state builds no new strings.
func reuseName(b []byte, prev []Diskstats, at int) string {
	if at < len(prev) && prev[at].Name == string(b) {
		return prev[at].Name
	}
	return string(b)
}
