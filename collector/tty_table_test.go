package collector

import "testing"

// ttyDescs is the verified pmdalinux descriptor table of tty.serial.*
// (see pmdalinux_test.go for the row format), transcribed from `pminfo
// -dT` against pmdalinux (PCP 6.0.3, kernel 6.18.44).
var ttyDescs = []pmdalinuxDesc{
	{"tty.serial.tx", "59.0", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.rx", "59.1", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.frame", "59.2", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.parity", "59.3", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.brk", "59.4", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.overrun", "59.5", "32-bit unsigned int", "counter", "none", "60.35"},
	{"tty.serial.irq", "59.6", "32-bit unsigned int", "discrete", "none", "60.35"},
}

func TestTTYDescriptors(t *testing.T) {
	h := newHarness(t, NewTTYCollector, "tty/t0")
	checkTwinTable(t, h, "tty.serial.", ttyDescs)
}
