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

// diskstatsCounters is how many counters a line can have after its
// major, minor and name.
const diskstatsCounters = 17

// parseDiskstatsLine fills d and returns how many fields it read. It
// reads each number in the one pass that finds its end: at 4096 disks a
// second, a scan for the field and a second one for its digits cost more
// than the kernel's copy of the text.
func parseDiskstatsLine(line []byte, d *Diskstats, prev []Diskstats, at int) (int, error) {
	var c [diskstatsCounters]uint64
	n, i := 0, 0
	for ; n < 3+diskstatsCounters; n++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		if n == 2 {
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			d.Name = reuseName(line[i:j], prev, at)
			i = j
			continue
		}
		v, digits := plainDigits(line[i:])
		j += digits
		if j < len(line) && line[j] != ' ' && line[j] != '\t' {
			// Not a plain number of up to 19 digits: the careful parser
			// decides, on the whole field.
			for j < len(line) && line[j] != ' ' && line[j] != '\t' {
				j++
			}
			var ok bool
			if v, ok = parseUint(line[i:j]); !ok {
				return n, fmt.Errorf("diskstats: bad field %q in %q", line[i:j], line)
			}
		}
		if n < 2 && v > 1<<32-1 {
			return n, fmt.Errorf("diskstats: bad field %q in %q", line[i:j], line)
		}
		switch n {
		case 0:
			d.Major = uint32(v)
		case 1:
			d.Minor = uint32(v)
		default:
			c[n-3] = v
		}
		i = j
	}
	d.ReadIOs, d.ReadMerges, d.ReadSectors, d.ReadTicks = c[0], c[1], c[2], c[3]
	d.WriteIOs, d.WriteMerges, d.WriteSectors, d.WriteTicks = c[4], c[5], c[6], c[7]
	d.InProgress, d.IOTicks, d.WeightedIOTicks = c[8], c[9], c[10]
	d.DiscardIOs, d.DiscardMerges, d.DiscardSectors, d.DiscardTicks = c[11], c[12], c[13], c[14]
	d.FlushIOs, d.FlushTicks = c[15], c[16]
	return n, nil
}

// reuseName returns the previous sample's string for the same device at
// the same position, so steady state builds no new strings.
func reuseName(b []byte, prev []Diskstats, at int) string {
	if at < len(prev) && prev[at].Name == string(b) {
		return prev[at].Name
	}
	return string(b)
}
