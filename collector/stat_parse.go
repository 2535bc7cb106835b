package collector

import (
	"errors"
	"fmt"

	"github.com/prometheus/procfs"
)

// statSample is what the cpu collector takes from /proc/stat.
//
// We parse /proc/stat ourselves rather than with procfs's Stat(): that one
// converts every interrupt and softirq counter on each call and allocates
// a map of CPUs, which made this collector cost several times the kernel's
// own time to produce the file, every second. This parser reuses its
// storage and reads only the lines we export.
type statSample struct {
	total                                 procfs.CPUStat
	cpus                                  []cpuStat // in file order
	ctxt, processes, running, blocked     uint64
	btime, intr                           uint64
	hasCtxt, hasProcesses, hasIntr, hasBT bool
}

// cpuStat is one "cpuN" line.
type cpuStat struct {
	id   int64
	stat procfs.CPUStat
}

var errNoCPULine = errors.New("no cpu line")

// parseStat fills s from /proc/stat's text, reusing s's storage.
func parseStat(data []byte, s *statSample) error {
	*s = statSample{cpus: s.cpus[:0]}
	sawTotal := false
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		name, rest := nextField(line)
		switch {
		case string(name) == "cpu":
			if err := parseCPULine(rest, &s.total); err != nil {
				return err
			}
			sawTotal = true
		case len(name) > 3 && string(name[:3]) == "cpu":
			id, ok := parseUint(name[3:])
			var c cpuStat
			if !ok || parseCPULine(rest, &c.stat) != nil {
				return fmt.Errorf("stat: bad line %q", line)
			}
			c.id = int64(id)
			s.cpus = append(s.cpus, c)
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
func (s *statSample) parseCounter(name string, rest []byte) {
	first, _ := nextField(rest)
	v, ok := parseUint(first)
	if !ok {
		return
	}
	switch name {
	case "ctxt":
		s.ctxt, s.hasCtxt = v, true
	case "processes":
		s.processes, s.hasProcesses = v, true
	case "procs_running":
		s.running = v
	case "procs_blocked":
		s.blocked = v
	case "btime":
		s.btime, s.hasBT = v, true
	case "intr":
		s.intr, s.hasIntr = v, true // the total; the per-IRQ counts are skipped
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
		*cols[n] = float64(v) / userHZ
		n++
	}
	if n < 4 {
		return fmt.Errorf("stat: cpu line has %d fields", n)
	}
	return nil
}
