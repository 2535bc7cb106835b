package integration

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var fetchValueLine = regexp.MustCompile(`^\s+(?:inst \[\d+ or "([^"]*)"\] )?value (\S+)`)

// fetchAll runs one pminfo -f over names: metric -> instance -> value.
func fetchAll(t *testing.T, names []string) map[string]map[string]string {
	t.Helper()
	out, _ := run(t, 2*time.Minute, "pminfo", append([]string{"-f"}, names...)...)
	vals := map[string]map[string]string{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") {
			cur = strings.TrimSpace(line)
			continue
		}
		if m := fetchValueLine.FindStringSubmatch(line); m != nil {
			if vals[cur] == nil {
				vals[cur] = map[string]string{}
			}
			vals[cur][m[1]] = m[2]
		}
	}
	return vals
}

// gaugesDeclaredCounters are fields pmdalinux declares as counters that
// are levels, which go down as well as up: no bracket holds them. Their
// descriptors stay pmdalinux's.
var gaugesDeclaredCounters = map[string]string{
	"mem.vmstat.workingset_nodes": "the shadow nodes the page cache keeps now",
	"mem.vmstat.nr_free_cma":      "the free pages of the contiguous memory allocator now",
}

// readsTheRightField are pmdaproc 6.0.3's counters that read the stat
// field after their own; the twins read their own (README, "Processes
// too"), so no bracket of pmdaproc's holds them.
var readsTheRightField = map[string]bool{
	"proc.psinfo.delayacct_blkio_time": true,
	"proc.psinfo.guest_time":           true,
	"proc.psinfo.cguest_time":          true,
}

// compareCounterValues checks every counter that has a pmdalinux twin by
// bracketing: read pmdalinux, wait a second, read ours (a sample taken for
// that fetch, after pmdalinux's read), read pmdalinux again.
// Counters only grow, so ours must lie between the two pmdalinux readings.
func compareCounterValues(t *testing.T, ours, twins []string) (compared, matched int) {
	w0 := fetchAll(t, twins)
	// Every source samples afresh at a fetch that finds its sample older
	// than fresh_within (20 ms), so our reading comes after pmdalinux's.
	time.Sleep(time.Second)
	o := fetchAll(t, ours)
	w1 := fetchAll(t, twins)
	for i, name := range ours {
		if _, gauge := gaugesDeclaredCounters[twins[i]]; gauge || readsTheRightField[twins[i]] {
			continue
		}
		for inst, ov := range o[name] {
			a, errA := strconv.ParseFloat(ov, 64)
			b0, errB := strconv.ParseFloat(w0[twins[i]][inst], 64)
			b1, errC := strconv.ParseFloat(w1[twins[i]][inst], 64)
			if errA != nil || errB != nil || errC != nil {
				continue // not numeric, or the twin lacks this instance
			}
			compared++
			if b0 <= a && a <= b1 {
				matched++
				continue
			}
			t.Errorf("%s[%s] = %v, not between pmdalinux's %s readings %v and %v", name, inst, a, twins[i], b0, b1)
		}
	}
	return compared, matched
}
