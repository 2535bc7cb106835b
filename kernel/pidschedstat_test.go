package kernel

import "testing"

func TestParsePidSchedstat(t *testing.T) {
	var s PidSchedstat
	if err := ParsePidSchedstat([]byte("265987939 44748140 1132\n"), &s); err != nil {
		t.Fatal(err)
	}
	if s != (PidSchedstat{CPUTime: 265987939, RunDelay: 44748140, Timeslices: 1132}) {
		t.Errorf("got %+v", s)
	}
	for _, bad := range []string{"", "1 2", "1 2 x"} {
		if err := ParsePidSchedstat([]byte(bad), &s); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
