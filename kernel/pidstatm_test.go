package kernel

import "testing"

func TestParsePidStatm(t *testing.T) {
	var m PidStatm
	if err := ParsePidStatm([]byte("765 422 394 5 0 123 0\n"), &m); err != nil {
		t.Fatal(err)
	}
	if m != (PidStatm{Size: 765, Resident: 422, Shared: 394, Text: 5, Data: 123}) {
		t.Errorf("got %+v", m)
	}
	for _, bad := range []string{"", "1 2 3 4 5 6", "1 2 3 4 5 6 x"} {
		if err := ParsePidStatm([]byte(bad), &m); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
