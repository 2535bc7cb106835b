package kernel

import "fmt"

// PidStatm is one parsed /proc/PID/statm, in pages: the sizes behind
// pmdaproc's proc.memory.{size,rss,share,textrss,librss,datrss,dirty}.
type PidStatm struct {
	Size, Resident, Shared, Text, Lib, Data, Dirty uint64
}

// ParsePidStatm reads the file's seven decimals (lib and dirty are
// always 0 since Linux 2.6).
func ParsePidStatm(data []byte, m *PidStatm) error {
	out := []*uint64{&m.Size, &m.Resident, &m.Shared, &m.Text, &m.Lib, &m.Data, &m.Dirty}
	if _, ok := takeUnsigned(data, out); !ok {
		return fmt.Errorf("want 7 page counts, got %q", clip(data))
	}
	return nil
}
