package kernel

import (
	"errors"
	"fmt"

	"github.com/prometheus/procfs"
)

// UserHZ is the tick rate of /proc/stat's CPU times: USER_HZ, 100 on every
// Linux ABI whatever the kernel's own HZ.
const UserHZ = 100

// StatSample is what the cpu collector takes from /proc/stat.
//
// We parse /proc/stat ourselves rather than with procfs's Stat(): that one
// converts every interrupt and softirq counter on each call and allocates
// a map of CPUs, which made this collector cost several times the kernel's
// own time to produce the file, every second. This parser reuses its
// storage and reads only the lines we export.
type StatSample struct {
	Total                                       procfs.CPUStat
	CPUs                                        []CPUStat // in file order
	Ctxt, Processes, Running, Blocked           uint64
	BootTime, Intr                              uint64
	HasCtxt, HasProcesses, HasIntr, HasBootTime bool
}

// CPUStat is one "cpuN" line.
type CPUStat struct {
	ID   int64
	Stat procfs.CPUStat
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
			if !ok || parseCPULine(rest, &c.Stat) != nil {
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

// parseCPULine reads the tick columns of a cpu line (at least four; older
// kernels have fewer than ten) as procfs does: seconds, ticks/USER_HZ.
func parseCPULine(rest []byte, st *procfs.CPUStat) error {
	cols := [10]*float64{&st.User, &st.Nice, &st.System, &st.Idle, &st.Iowait,
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
		*cols[n] = float64(v) / UserHZ
		n++
	}
	if n < 4 {
		return fmt.Errorf("stat: cpu line has %d fields", n)
	}
	return nil
}
