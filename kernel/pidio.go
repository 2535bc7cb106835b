package kernel

import (
	"bytes"
	"fmt"
)

// PidIO is one parsed /proc/PID/io: the counters behind pmdaproc's
// proc.io metrics. Only the process's owner (or a reader with
// CAP_SYS_PTRACE) may open the file.
type PidIO struct {
	RChar, WChar, SyscR, SyscW, ReadBytes, WriteBytes, CancelledWriteBytes uint64
}

// ParsePidIO reads the file's seven "name: decimal" lines; a line it
// does not know is skipped, and a known one missing is an error.
func ParsePidIO(data []byte, io *PidIO) error {
	fields := []struct {
		name string
		to   *uint64
	}{
		{"rchar", &io.RChar}, {"wchar", &io.WChar}, {"syscr", &io.SyscR}, {"syscw", &io.SyscW},
		{"read_bytes", &io.ReadBytes}, {"write_bytes", &io.WriteBytes},
		{"cancelled_write_bytes", &io.CancelledWriteBytes},
	}
	seen := 0
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest = nextLine(rest)
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		for _, f := range fields {
			if string(name) != f.name {
				continue
			}
			v, ok := parseUint(bytes.TrimSpace(value))
			if !ok {
				return fmt.Errorf("io line %s: bad value %q", name, clip(value))
			}
			*f.to = v
			seen++
		}
	}
	if seen != len(fields) {
		return fmt.Errorf("io: %d of %d counters", seen, len(fields))
	}
	return nil
}
