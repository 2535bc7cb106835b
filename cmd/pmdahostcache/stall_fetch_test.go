package main

import (
	"encoding/binary"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// fetchResult fetches names through the agent and returns the decoded
// value sets, in order.
func fetchResult(t *testing.T, a *driver.Agent, names ...string) []pmda.ResultSet {
	t.Helper()
	var pmids []uint32
	for _, n := range names {
		pmids = append(pmids, pmidOf(n))
	}
	h, reply, err := a.Request((&pmda.Fetch{PMIDs: pmids}).Append(nil))
	var res pmda.Result
	if err != nil || h.Type != pmda.TypeResult || res.Decode(reply) != nil {
		t.Fatalf("fetch %v: %v %v", names, h.Type, err)
	}
	return res.Sets
}

// u64Of is the one U64 value of a set, as the agent encodes it.
func u64Of(t *testing.T, s pmda.ResultSet) uint64 {
	t.Helper()
	if s.NumVal != 1 || len(s.Values[0].Payload) != 8 {
		t.Fatalf("set %+v is no single U64", s)
	}
	return binary.BigEndian.Uint64(s.Values[0].Payload)
}

// TestStalledSourceCostsOneDeadline: the load collector is stuck on a
// FIFO nobody writes. The first fetch of its metrics waits fetch_wait for
// it and is answered from the cache; later fetches do not wait for it,
// while the CPU's metrics fetched with it keep being sampled for them.
func TestStalledSourceCostsOneDeadline(t *testing.T) {
	a, logFile := startStuckAgent(t)
	misses := "hostcache.control.fresh.misses"
	sampled := "hostcache.control.fresh.sampled"
	start := time.Now()
	sets := fetchResult(t, a, "hostcache.kernel.all.load")
	first := time.Since(start)
	if sets[0].NumVal > 0 {
		t.Errorf("the stuck load collector served %d values", sets[0].NumVal)
	}
	if first < 100*time.Millisecond {
		t.Errorf("the first fetch of the stuck source returned after %v, before fetch_wait", first)
	}
	if n := u64Of(t, fetchResult(t, a, misses)[0]); n != 1 {
		t.Fatalf("fresh.misses %d after the first fetch, want 1", n)
	}
	waitedBefore := u64Of(t, fetchResult(t, a, sampled)[0])
	for range 20 {
		fetchResult(t, a, "hostcache.kernel.all.load")
	}
	if n := u64Of(t, fetchResult(t, a, misses)[0]); n != 1 {
		t.Errorf("fresh.misses %d after 20 more fetches, want 1: fetches waited again for a stuck source", n)
	}
	if n := u64Of(t, fetchResult(t, a, sampled)[0]); n != waitedBefore {
		t.Errorf("fresh.sampled went from %d to %d: fetches of the stuck source alone waited", waitedBefore, n)
	}
	// The CPU's samples stay fresh beside it: each fetch of both, 30 ms
	// apart, is answered from a cpu sample at most fresh_within (20 ms)
	// old at its arrival, taken for it or by the grid just before.
	cpu := slices.IndexFunc(collector.Registry(), func(r engine.Registration) bool { return r.Name == "cpu" })
	for range 3 {
		time.Sleep(30 * time.Millisecond)
		sets := fetchResult(t, a, "hostcache.kernel.all.load", "hostcache.kernel.all.cpu.user",
			"hostcache.control.collector.age")
		if sets[1].NumVal != 1 {
			t.Errorf("kernel.all.cpu.user has %d values beside the stuck source", sets[1].NumVal)
		}
		for _, v := range sets[2].Values {
			if int(v.Inst) == cpu {
				if age := binary.BigEndian.Uint64(v.Payload); age > 20 {
					t.Errorf("the cpu collector's sample was %d ms old at a fetch beside the stuck source", age)
				}
			}
		}
	}
	if n := u64Of(t, fetchResult(t, a, sampled)[0]); n == waitedBefore {
		t.Errorf("fresh.sampled stayed %d over three fetches 30 ms apart: the cpu collector was never sampled for one", n)
	}
	if n := u64Of(t, fetchResult(t, a, misses)[0]); n != 1 {
		t.Errorf("fresh.misses %d, want 1", n)
	}
	checkCleanExit(t, a, logFile)
	if t.Failed() {
		data, _ := os.ReadFile(logFile)
		t.Logf("agent log:\n%s", data)
	}
}
