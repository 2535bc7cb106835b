package network

import (
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/kernel"

	"golang.org/x/sys/unix"
)

// The attribute parsers take exactly what the strconv calls they replace
// took, without allocating.
func TestNetAttributeParsers(t *testing.T) {
	for _, text := range []string{"", "0", "1", "1000", "-1", "+100", "-0", "+", "++5", "-",
		"9223372036854775807", "9223372036854775808", "18446744073709551615",
		"18446744073709551616", "0x1003", "0X1003", "0x", "0xg", "0x_1003", "0x1_003", "0b101",
		"0o17", "017", "08", "0x10000000000000000", "0xffffffffffffffff", "0x0000000000000000001",
		"1_000", "1e3", " 1", "abc", "4294967295", "4294967296"} {
		v, err := strconv.ParseInt(text, 10, 64)
		wantSpeed, wantHasSpeed := uint64(v), err == nil && v > 0
		if got, ok := kernel.ParseSpeed([]byte(text)); ok != wantHasSpeed || (ok && got != wantSpeed) {
			t.Errorf("speed %q: %d %v, want %d %v", text, got, ok, wantSpeed, wantHasSpeed)
		}
		f, err := strconv.ParseUint(text, 0, 64)
		if got, ok := kernel.ParseFlags([]byte(text)); ok != (err == nil) || (ok && got != f) {
			t.Errorf("flags %q: %#x %v, want %#x %v", text, got, ok, f, err == nil)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		kernel.ParseFlags([]byte("0x1003"))
		kernel.ParseSpeed([]byte("1000"))
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func TestAttrLine(t *testing.T) {
	for text, want := range map[string]string{
		"1500\n": "1500", "  up \n": "up", "full\nhalf\n": "full", "x": "x",
		"\n": "", "": "", " \t\r\n": "", "\nup\n": "",
	} {
		got, ok := kernel.AttrLine([]byte(text))
		if string(got) != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", text, got, ok, want)
		}
	}
}

// A refresh of an interface's changeable attributes allocates nothing,
// and reads what the fixture holds.
func TestNetSysfsState(t *testing.T) {
	s := netSysfs{root: filepath.Join(netTestdata, "t0", "sys")}
	st := s.state(s.dir("eth1"), nil, netIfState{}, true)
	want := netIfState{mtu: 1500, speed: 1000, duplex: 2, up: 1, running: 1,
		hasMTU: true, hasSpeed: true, hasDuplex: true, hasUp: true, hasRunning: true}
	if st != want {
		t.Errorf("eth1 %+v\nwant %+v", st, want)
	}
	// lo: no speed or duplex file (the kernel refuses them).
	st = s.state(s.dir("lo"), nil, netIfState{}, true)
	want = netIfState{mtu: 65536, up: 1, running: 1, hasMTU: true, hasUp: true, hasRunning: true}
	if st != want {
		t.Errorf("lo %+v\nwant %+v", st, want)
	}
	if st := s.state(s.dir("nosuch0"), nil, netIfState{}, true); st != (netIfState{}) {
		t.Errorf("an interface not in sysfs has %+v", st)
	}
	if st := (&netSysfs{}).state(nil, nil, netIfState{mtu: 1}, false); st != (netIfState{}) {
		t.Errorf("no /sys root, but %+v", st)
	}
	// Up and running alone: the link settings are kept from before.
	kept := netIfState{mtu: 9000, speed: 10, duplex: 1, hasMTU: true, hasSpeed: true, hasDuplex: true}
	want = kept
	want.up, want.running, want.hasUp, want.hasRunning = 1, 1, true, true
	if st := s.state(s.dir("eth1"), nil, kept, false); st != want {
		t.Errorf("eth1, up and running only: %+v\nwant %+v", st, want)
	}
	if st := s.state(s.dir("nosuch0"), nil, kept, false); st != (netIfState{}) {
		t.Errorf("an interface gone from sysfs keeps %+v", st)
	}
	dir := s.dir("eth1")
	for _, all := range []bool{true, false} {
		if n := testing.AllocsPerRun(20, func() { s.state(dir, nil, kept, all) }); n != 0 {
			t.Errorf("%v allocations per refresh (all %v)", n, all)
		}
	}
}

// Up and running from an interface's kept files are what its directory
// gives, without allocating; a kept interface gone from sysfs keeps
// nothing, as one read by path does; the files are closed when it goes.
func TestNetSysfsKeptFiles(t *testing.T) {
	s := netSysfs{root: filepath.Join(netTestdata, "t0", "sys"), keepAll: true, maxKept: 1}
	files := s.openFiles("eth1")
	if files == nil || s.openFiles("lo") != nil {
		t.Fatal("want one interface's files kept, at most maxKept")
	}
	kept := netIfState{mtu: 9000, hasMTU: true}
	want := kept
	want.up, want.running, want.hasUp, want.hasRunning = 1, 1, true, true
	if st := s.state(s.dir("eth1"), files, kept, false); st != want {
		t.Errorf("eth1 from kept files: %+v\nwant %+v", st, want)
	}
	for _, all := range []bool{true, false} {
		if n := testing.AllocsPerRun(20, func() { s.state(nil, files, kept, all) }); n != 0 {
			t.Errorf("%v allocations per refresh from kept files (all %v)", n, all)
		}
	}
	// Everything, link settings included, from the kept files.
	full := netIfState{mtu: 1500, speed: 1000, duplex: 2, up: 1, running: 1,
		hasMTU: true, hasSpeed: true, hasDuplex: true, hasUp: true, hasRunning: true}
	if st := s.state(nil, files, netIfState{}, true); st != full {
		t.Errorf("eth1, all from kept files: %+v\nwant %+v", st, full)
	}
	s.maxKept = 2
	lo := s.openFiles("lo")
	loWant := netIfState{mtu: 65536, up: 1, running: 1, hasMTU: true, hasUp: true, hasRunning: true}
	if st := s.state(nil, lo, netIfState{}, true); st != loWant {
		t.Errorf("lo from kept files (no speed or duplex file): %+v\nwant %+v", st, loWant)
	}
	s.closeFiles(lo)
	gone := netSysfs{root: t.TempDir(), keepAll: true, maxKept: 1}
	if st := gone.state(gone.dir("eth1"), gone.openFiles("eth1"), kept, false); st != (netIfState{}) {
		t.Errorf("an interface gone from sysfs keeps %+v", st)
	}
	s.closeFiles(files)
	if s.kept != 0 {
		t.Errorf("%d interfaces still counted as kept", s.kept)
	}
}

// A path without its NUL is refused rather than read past its end.
func TestOpenAtRawNeedsNUL(t *testing.T) {
	if fd, ok := kernel.OpenAt(unix.AT_FDCWD, []byte("/proc"), unix.O_PATH); ok {
		syscall.Close(fd)
		t.Fatal("path without a NUL opened")
	}
	fd, ok := kernel.OpenAt(unix.AT_FDCWD, []byte("/proc\x00"), unix.O_PATH)
	if !ok {
		t.Fatal("NUL-terminated path not opened")
	}
	syscall.Close(fd)
}
