package collector

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Frequency scaling, per CPU, from /sys/devices/system/cpu/cpuN/cpufreq,
// with pmdalinux's items 6-9 of its cluster 55 (in our cluster 43) over
// the cpusys collector's CPUs. pmdalinux's own arithmetic, kept for the
// twins to agree: from stats/time_in_state ("<kHz> <time in 10 ms>" per
// line) count is the sum of MHz x time, time the sum of the times (which
// pmdalinux declares microseconds), max and min the highest and lowest
// frequencies listed, in MHz. Without statistics only max and min are
// known, from cpuinfo_max_freq and cpuinfo_min_freq.
var (
	cpuFreqCount = engine.Row{Name: "hostcache.hinv.cpu.frequency_scaling.count", Cluster: clusterCPUFreq,
		Item: 6, Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomCPUSys}.Desc()
	cpuFreqTime = engine.Row{Name: "hostcache.hinv.cpu.frequency_scaling.time", Cluster: clusterCPUFreq,
		Item: 7, Type: cache.TypeU64, Sem: cache.SemCounter,
		Units: cache.MakeUnits(0, 1, 0, 0, cache.TimeUSec, 0), InDom: indomCPUSys}.Desc()
	cpuFreqMax = engine.Row{Name: "hostcache.hinv.cpu.frequency_scaling.max", Cluster: clusterCPUFreq,
		Item: 8, Type: cache.TypeU32, Sem: cache.SemInstant,
		Units: cache.MakeUnits(0, -1, 0, 0, cache.TimeUSec, 0), InDom: indomCPUSys}.Desc()
	cpuFreqMin = engine.Row{Name: "hostcache.hinv.cpu.frequency_scaling.min", Cluster: clusterCPUFreq,
		Item: 9, Type: cache.TypeU32, Sem: cache.SemInstant,
		Units: cache.MakeUnits(0, -1, 0, 0, cache.TimeUSec, 0), InDom: indomCPUSys}.Desc()
)

// cpuFreqFiles are one CPU's cpufreq files; nil when it has no cpufreq
// directory (virtual machines, most of them), so nothing is tried.
type cpuFreqFiles struct {
	stats    *kernel.File // stats/time_in_state; nil without the governor's statistics
	max, min *kernel.File
}

// openCPUFreq names a CPU's cpufreq files.
func (c *cpusysCollector) openCPUFreq(name string) *cpuFreqFiles {
	dir := filepath.Join(c.dir, name, "cpufreq")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	f := &cpuFreqFiles{
		max: kernel.NewFile(c.sys, filepath.Join(dir, "cpuinfo_max_freq")),
		min: kernel.NewFile(c.sys, filepath.Join(dir, "cpuinfo_min_freq")),
	}
	if _, err := os.Stat(filepath.Join(dir, "stats", "time_in_state")); err == nil {
		f.stats = kernel.NewFile(c.sys, filepath.Join(dir, "stats", "time_in_state"))
	}
	return f
}

// sampleCPUFreq publishes one CPU's frequency scaling figures.
func (c *cpusysCollector) sampleCPUFreq(b *cache.Builder, inst uint32, f *cpuFreqFiles) {
	if f == nil {
		return
	}
	if f.stats != nil {
		var err error
		if c.buf, err = f.stats.Read(c.buf); err == nil {
			if st, ok := parseTimeInState(c.buf); ok {
				b.SetU64(cpuFreqCount.ID, inst, st.count)
				b.SetU64(cpuFreqTime.ID, inst, st.time)
				b.SetU64(cpuFreqMax.ID, inst, st.max)
				b.SetU64(cpuFreqMin.ID, inst, st.min)
				return
			}
		}
	}
	for _, x := range []struct {
		file *kernel.File
		d    cache.Desc
	}{{f.max, cpuFreqMax}, {f.min, cpuFreqMin}} {
		var err error
		if c.buf, err = x.file.Read(c.buf); err != nil {
			continue
		}
		if line, ok := kernel.AttrLine(c.buf); ok {
			if khz, ok := kernel.ParseDecimal(line); ok {
				b.SetU64(x.d.ID, inst, khz/1000)
			}
		}
	}
}

// timeInState is what stats/time_in_state sums to.
type timeInState struct{ count, time, max, min uint64 }

// parseTimeInState sums "<kHz> <time>" lines; false when none parses.
func parseTimeInState(text []byte) (timeInState, bool) {
	var st timeInState
	lines := 0
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		khz, err1 := strconv.ParseUint(f[0], 10, 64)
		t, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		mhz := khz / 1000
		st.count += mhz * t
		st.time += t
		st.max = max(st.max, mhz)
		if st.min == 0 || mhz < st.min {
			st.min = mhz
		}
		lines++
	}
	return st, lines > 0
}
