package collector

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"syscall"

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

// readFileInto reads a whole /proc or /sys file into buf (grown as needed).
// It uses the raw syscalls: os.Open would also try to register each fd
// with the runtime's poller (an extra epoll_ctl per file that always
// fails for these files) and wrap it in an os.File, which at a few dozen
// files a second was a fifth of a collector's cost.
func readFileInto(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf[:0], &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// readFile reads a whole /proc or /sys file (see readFileInto).
func readFile(path string) ([]byte, error) {
	return readFileInto(path, make([]byte, 0, 4096))
}

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

// nextLine returns the first line of b (without its newline) and the rest.
func nextLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// nextField returns the next space-separated field and the rest.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	if i == j {
		return nil, nil
	}
	return b[i:j], b[j:]
}

// parseUint reads a decimal without allocating; false on anything else.
func parseUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}
