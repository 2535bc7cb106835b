package collector

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// tmpfsDescs is the verified pmdalinux descriptor table of tmpfs.* (see
// pmdalinux_test.go for the row format), transcribed from `pminfo -dT`
// against pmdalinux (PCP 6.0.3, kernel 6.18.44).
var tmpfsDescs = []pmdalinuxDesc{
	{"tmpfs.capacity", "58.1", "64-bit unsigned int", "discrete", "Kbyte", "60.18"},
	{"tmpfs.used", "58.2", "64-bit unsigned int", "instant", "Kbyte", "60.18"},
	{"tmpfs.free", "58.3", "64-bit unsigned int", "instant", "Kbyte", "60.18"},
	{"tmpfs.maxfiles", "58.4", "32-bit unsigned int", "discrete", "none", "60.18"},
	{"tmpfs.usedfiles", "58.5", "32-bit unsigned int", "instant", "none", "60.18"},
	{"tmpfs.freefiles", "58.6", "32-bit unsigned int", "instant", "none", "60.18"},
	{"tmpfs.full", "58.7", "double", "instant", "none", "60.18"},
}

func TestTmpfsDescriptors(t *testing.T) {
	h, _ := newTmpfsHarness(t, "t0", engine.Env{}, newTmpfsFake(), time.Second)
	checkTwinTable(t, h, "tmpfs.", tmpfsDescs)
}
