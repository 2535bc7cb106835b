package kernel

import (
	"errors"
	"fmt"
)

// UserHZ is the tick rate of /proc/stat's CPU times: USER_HZ, 100 on every
// Linux ABI whatever the kernel's own HZ.
const UserHZ = 100

// StatSample is what the cpu collector takes from /proc/stat, as
// Documentation/filesystems/proc.rst ("1.8 Miscellaneous kernel
// statistics") describes it:
//
//   - "cpu" and "cpuN" lines: CPU time in USER_HZ ticks, in the columns
//     user, nice, system, idle, iowait, irq, softirq, steal, guest,
//     guest_nice (kernels before 2.6.33 print fewer; at least the first
//     four are required, missing ones read 0, as pmdalinux reads them;
//     columns a future kernel adds are ignored);
//   - "ctxt", "processes", "procs_running", "procs_blocked", "btime" and
//     the first number of "intr" (the total; the per-IRQ counts are not
//     read): one unsigned decimal each, a line whose number does not parse
//     is left out.
//
// The times stay integers in ticks: the collector converts them to
// milliseconds exactly as pmdalinux does. We parse the file ourselves
// rather than with procfs's Stat(), which converts every interrupt and
// softirq counter and allocates a map of CPUs on each call, and which
// returns float seconds; this parser reuses its storage and reads only the
// lines we export. procfs is the oracle in its tests.
type StatSample struct {
	Total                                       CPUTicks
	CPUs                                        []CPUStat // in file order
	Ctxt, Processes, Running, Blocked           uint64
	BootTime, Intr                              uint64
	HasCtxt, HasProcesses, HasIntr, HasBootTime bool
}

// CPUTicks is one cpu line's times, in USER_HZ ticks.
type CPUTicks struct {
	User, Nice, System, Idle, Iowait, IRQ, SoftIRQ, Steal, Guest, GuestNice uint64
}

// CPUStat is one "cpuN" line.
type CPUStat struct {
	ID    int64
	Ticks CPUTicks
}

var errNoCPULine = errors.New("no cpu line")

// ParseStat fills s from /proc/stat's text, reusing s's storage.
func ParseStat(data []byte, s *StatSample) error {
	*s = StatSample{CPUs: s.CPUs[:0]}
	sawTotal := false
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		name, rest := nextField(line)
		switch {
		case string(name) == "cpu":
			if err := parseCPULine(rest, &s.Total); err != nil {
				return err
			}
			sawTotal = true
		case len(name) > 3 && string(name[:3]) == "cpu":
			id, ok := parseUint(name[3:])
			var c CPUStat
			if !ok || parseCPULine(rest, &c.Ticks) != nil {
				return fmt.Errorf("stat: bad line %q", line)
			}
			c.ID = int64(id)
			s.CPUs = append(s.CPUs, c)
		default:
			s.parseCounter(string(name), rest)
		}
	}
	if !sawTotal {
		return errNoCPULine
	}
	return nil
}

// parseCounter takes the first number of the single-valued lines we use.
func (s *StatSample) parseCounter(name string, rest []byte) {
	first, _ := nextField(rest)
	v, ok := parseUint(first)
	if !ok {
		return
	}
	switch name {
	case "ctxt":
		s.Ctxt, s.HasCtxt = v, true
	case "processes":
		s.Processes, s.HasProcesses = v, true
	case "procs_running":
		s.Running = v
	case "procs_blocked":
		s.Blocked = v
	case "btime":
		s.BootTime, s.HasBootTime = v, true
	case "intr":
		s.Intr, s.HasIntr = v, true // the total; the per-IRQ counts are skipped
	}
}

// parseCPULine reads the tick columns of a cpu line: at least four, at
// most the ten we know.
func parseCPULine(rest []byte, st *CPUTicks) error {
	*st = CPUTicks{}
	cols := [10]*uint64{&st.User, &st.Nice, &st.System, &st.Idle, &st.Iowait,
		&st.IRQ, &st.SoftIRQ, &st.Steal, &st.Guest, &st.GuestNice}
	n := 0
	for n < len(cols) {
		var f []byte
		if f, rest = nextField(rest); f == nil {
			break
		}
		v, ok := parseUint(f)
		if !ok {
			return fmt.Errorf("stat: bad cpu field %q", f)
		}
		*cols[n] = v
		n++
	}
	if n < 4 {
		return fmt.Errorf("stat: cpu line has %d fields", n)
	}
	return nil
}
