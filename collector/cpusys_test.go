package collector

import (
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Fixtures sys-t0 and sys-t1: cpu0 (no online file, thermal_throttle
// present) and cpu1 (online) at t0; at t1 cpu1 is offline, cpu2 has come,
// and cpu0 has been throttled 4 more times for 200 ms more.
func TestCPUSysValues(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := newSysHarness(t, sys)
	h.MustSample(t0)
	h.WantU64("hinv.cpu.online", 0, 1) // the boot CPU has no online file
	h.WantU64("hinv.cpu.online", 1, 1)
	h.WantU64("hinv.map.cpu_num", 1, 1)
	h.WantU64("hinv.cpu.thermal_throttle.core.count", 0, 5)
	h.WantU64("hinv.cpu.thermal_throttle.package.time", 0, 40)
	h.WantU64("hinv.cpu.thermal_throttle.core.count", 1, 0) // no thermal_throttle: never throttled
	replaceTree(t, filepath.Join(testdataDir, "sys-t1"), sys)
	h.MustSample(t1)
	if got := len(h.hostInstances(indomCPUSys)); got != 3 {
		t.Errorf("%d CPUs at t1, want 3", got)
	}
	h.WantU64("hinv.cpu.online", 1, 0)
	h.WantU64("hinv.cpu.online", 2, 1)
	h.WantU64("hinv.map.cpu_num", 2, 2)
	h.WantFloat("rate.hinv.cpu.thermal_throttle.core.count", 0, 2)  // 4 in 2 s
	h.WantFloat("rate.hinv.cpu.thermal_throttle.core.time", 0, 0.1) // 200 ms in 2 s
}

// Without a present list the collector fails; nothing else is touched.
func TestCPUSysMissing(t *testing.T) {
	h := newSysHarness(t, t.TempDir())
	if err := h.Sample(t0); err == nil {
		t.Error("no error without /sys/devices/system/cpu/present")
	}
	h.WantAbsent("hinv.cpu.online", 0)
}

// newSysHarness runs the cpusys collector on a /sys root.
func newSysHarness(t *testing.T, sys string) *harness {
	h := &harness{&collectortest.Harness{T: t, Proc: t.TempDir()}}
	h.Use("proc-t0")
	h.Attach(NewCPUSysCollector, engine.Env{Proc: h.Proc, Sys: sys})
	return h
}

// Fixtures sys-t0 and sys-t1 cpufreq: cpu0 with the governor's statistics
// (2.4, 1.8 and 1.2 GHz for 1000, 500 and 2500 ticks at t0; 100 more at
// 2.4 GHz and 100 more at 1.2 GHz by t1), cpu1 with only its limits
// (3 GHz, 800 MHz), cpu2 (t1) without cpufreq.
func TestCPUFreq(t *testing.T) {
	sys := t.TempDir()
	replaceTree(t, filepath.Join(testdataDir, "sys-t0"), sys)
	h := newSysHarness(t, sys)
	h.MustSample(t0)
	h.WantU64("hinv.cpu.frequency_scaling.count", 0, 6300000) // 2400*1000 + 1800*500 + 1200*2500
	h.WantU64("hinv.cpu.frequency_scaling.time", 0, 4000)
	h.WantU64("hinv.cpu.frequency_scaling.max", 0, 2400)
	h.WantU64("hinv.cpu.frequency_scaling.min", 0, 1200)
	h.WantAbsent("hinv.cpu.frequency_scaling.count", 1)
	h.WantU64("hinv.cpu.frequency_scaling.max", 1, 3000)
	h.WantU64("hinv.cpu.frequency_scaling.min", 1, 800)
	replaceTree(t, filepath.Join(testdataDir, "sys-t1"), sys)
	h.MustSample(t1)
	h.WantFloat("rate.hinv.cpu.frequency_scaling.count", 0, 180000) // (2400*100 + 1200*100) / 2 s
	h.WantFloat("rate.hinv.cpu.frequency_scaling.time", 0, 0.0001)  // 200 "microseconds" in 2 s, as pmdalinux declares them
	h.WantAbsent("hinv.cpu.frequency_scaling.max", 2)
}

func TestParseTimeInState(t *testing.T) {
	if _, ok := parseTimeInState([]byte("garbage\n\n")); ok {
		t.Error("a file without a frequency line parsed")
	}
	st, ok := parseTimeInState([]byte("3000000 7\nbad line here\n1000000 3\n"))
	if want := (timeInState{count: 3000*7 + 1000*3, time: 10, max: 3000, min: 1000}); !ok || st != want {
		t.Errorf("got %+v %v, want %+v", st, ok, want)
	}
}
