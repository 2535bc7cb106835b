//go:build linux

package integration

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// afFreshWithin is the agent's default fresh_within.
const afFreshWithin = 20 * time.Millisecond

// afSNMP reads the named field of a group of /proc/net/snmp ("Tcp",
// "InSegs").
func afSNMP(t *testing.T, group, field string) uint64 {
	t.Helper()
	data, err := os.ReadFile("/proc/net/snmp")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != group+":" {
			continue
		}
		if names == nil {
			names = f[1:]
			continue
		}
		for i, n := range names {
			if n == field && i+1 < len(f) {
				v, err := strconv.ParseUint(f[i+1], 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
	}
	t.Fatalf("/proc/net/snmp has no %s %s", group, field)
	return 0
}

// afAsOfTheFetch checks, as PCP's QA test 216 does with netstat -s, that
// each of metric's values lies between the kernel's counter read before
// and just after its fetch, while loopback traffic moves it: a value as of
// the fetch, not as of a sample taken up to an interval before it. The
// agent answers from samples at most fresh_within (20 ms) old, so the
// reading before is taken more than that before the fetch, as netstat's
// run before pminfo's start is in QA 216.
func afAsOfTheFetch(t *testing.T, metric, group, field string) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	if _, err := ciLoadLoopback(stop, &wg); err != nil {
		t.Fatalf("loopback load: %v", err)
	}
	time.Sleep(500 * time.Millisecond)
	var outside int
	for k := range 10 {
		before := afSNMP(t, group, field)
		time.Sleep(afFreshWithin + 5*time.Millisecond)
		got, err := strconv.ParseUint(values(t, metric)[""], 10, 64)
		after := afSNMP(t, group, field)
		if err != nil {
			t.Fatalf("%s: %v", metric, err)
		}
		if before == after {
			t.Fatalf("%s %s did not move: no load to judge by", group, field)
		}
		if got < before || got > after {
			outside++
			t.Errorf("fetch %d: %s = %d, outside %d..%d", k, metric, got, before, after)
		}
		time.Sleep(time.Duration(137*k%1000) * time.Millisecond) // phases of their own
	}
	t.Logf("%s: %d of 10 fetches outside the kernel's readings around them", metric, outside)
}
