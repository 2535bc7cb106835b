package kernel

import (
	"fmt"

	"github.com/prometheus/procfs/blockdevice"
)

// ParseDiskstats reads /proc/diskstats text into out (reused), with the
// rules of procfs's ProcDiskstats: a line with fewer than 14 fields is
// skipped, a field that is not a number fails the whole file, and
// IoStatsCount says how many fields the kernel gave (14, 18 or 20).
//
// procfs scans each line with fmt.Sscanf, which on a host with thousands of
// devices made the disk collector's parse cost dwarf the kernel's; this
// parser allocates nothing in steady state: a device keeps the name string
// of its previous sample.
func ParseDiskstats(data []byte, out []blockdevice.Diskstats) ([]blockdevice.Diskstats, error) {
	prev := out
	out = out[:0]
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		var d blockdevice.Diskstats
		n, err := parseDiskstatsLine(line, &d, prev, len(out))
		if err != nil {
			return out, err
		}
		if n >= 14 {
			d.IoStatsCount = n
			out = append(out, d)
		}
	}
	return out, nil
}

// parseDiskstatsLine fills d and returns how many fields it read.
func parseDiskstatsLine(line []byte, d *blockdevice.Diskstats, prev []blockdevice.Diskstats, at int) (int, error) {
	counters := [...]*uint64{&d.ReadIOs, &d.ReadMerges, &d.ReadSectors, &d.ReadTicks,
		&d.WriteIOs, &d.WriteMerges, &d.WriteSectors, &d.WriteTicks, &d.IOsInProgress,
		&d.IOsTotalTicks, &d.WeightedIOTicks, &d.DiscardIOs, &d.DiscardMerges,
		&d.DiscardSectors, &d.DiscardTicks, &d.FlushRequestsCompleted, &d.TimeSpentFlushing}
	n := 0
	for rest := line; ; n++ {
		var f []byte
		if f, rest = nextField(rest); f == nil || n == 3+len(counters) {
			return n, nil
		}
		if n == 2 {
			d.DeviceName = reuseName(f, prev, at)
			continue
		}
		v, ok := parseUint(f)
		if !ok || (n < 2 && v > 1<<32-1) {
			return n, fmt.Errorf("diskstats: bad field %q in %q", f, line)
		}
		switch n {
		case 0:
			d.MajorNumber = uint32(v)
		case 1:
			d.MinorNumber = uint32(v)
		default:
			*counters[n-3] = v
		}
	}
}

// reuseName returns the previous sample's string for the same device at
// the same position, so steady state builds no new strings.
func reuseName(b []byte, prev []blockdevice.Diskstats, at int) string {
	if at < len(prev) && prev[at].DeviceName == string(b) {
		return prev[at].DeviceName
	}
	return string(b)
}
