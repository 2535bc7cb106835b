package kernel

import (
	"slices"
	"testing"
)

func TestParseTTYDrivers(t *testing.T) {
	text := "/dev/tty             /dev/tty        5       0 system:/dev/tty\n" +
		"serial               /dev/ttyS       4      64 serial\n" +
		"pty_slave            /dev/pts      136 0-1048575 pty:slave\n" +
		"broken line\n" + "odd /dev/x y 1 z\n"
	want := []TTYDriver{{"/dev/tty", 5, 0, 0}, {"/dev/ttyS", 4, 64, 64}, {"/dev/pts", 136, 0, 1048575}}
	if got := ParseTTYDrivers([]byte(text)); !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
