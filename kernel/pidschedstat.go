package kernel

import "fmt"

// PidSchedstat is one parsed /proc/PID/schedstat: the nanoseconds the
// process ran, the nanoseconds it waited to run, and its timeslices.
type PidSchedstat struct {
	CPUTime, RunDelay, Timeslices uint64
}

// ParsePidSchedstat reads the file's three decimals.
func ParsePidSchedstat(data []byte, s *PidSchedstat) error {
	out := []*uint64{&s.CPUTime, &s.RunDelay, &s.Timeslices}
	if _, ok := takeUnsigned(data, out); !ok {
		return fmt.Errorf("want 3 decimals, got %q", clip(data))
	}
	return nil
}
