//go:build linux

package integration

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// underLoad is what the checks that measure over real seconds share: one
// host load, one start and one dd burst, so that they can run side by
// side. Each of them judges hostcache against pmdalinux or pmdammv over
// the same seconds, so a load one of them adds moves both sides alike.
type underLoad struct {
	// t0 is the common start, 50 ms past a whole second, after the load
	// has settled: clients on a wall-clock grid start together there.
	t0 time.Time
	// diskDir is on the disk the trickle and the burst write to; dev is
	// that disk's pmdalinux instance name.
	diskDir, dev string
	// sent and written count the loopback and trickle load.
	sent, written *ciCount
	// burstDone closes once the dd burst, at t0+ciBurstAt, has ended;
	// burst then says what it wrote and when.
	burstDone chan struct{}
	burst     string
	burstErr  error
	// phaseFetch and alignedFetch are the C clients the checks run, built
	// before the start so that no check builds after it.
	phaseFetch, alignedFetch       string
	phaseFetchErr, alignedFetchErr error
	// recorder is held around a flight recording and the wait for its
	// archive, so that two checks never take each other's archive, nor
	// find the recorder busy with another's.
	recorder sync.Mutex
}

// ciBurstAt is when the dd burst starts after t0: 0.2 s after the agent's
// sample at 36.5 s, inside the 10 s loggers' record at 40 s and inside the
// 10 s phase client's fourth interval (31.37 s to 41.37 s), both judged.
const ciBurstAt = 36700 * time.Millisecond

// ciChecksEnd is when, after t0, the checks that measure the agent under
// the load have their last fetch: the loggers of testClientIntervals
// (66 s at 1 s), the phase clients (64 s) and the churn (62 s).
const ciChecksEnd = 66 * time.Second

// testSideBySide runs the MMV check beside the rest: new clients' rates,
// PCP's clients, then the checks under load. The MMV check compares
// hostcache with pmdammv in the same fetches, so what the others cost the
// host moves both sides alike, and its last minute, waiting for the
// agent's pace, costs the run nothing.
func testSideBySide(t *testing.T, pmdaDir string) {
	load := &underLoad{burstDone: make(chan struct{})}
	t.Run("MMV files", func(t *testing.T) {
		t.Parallel()
		testMMV(t, load)
	})
	t.Run("in turn", func(t *testing.T) {
		t.Parallel()
		// Before the load: the network counters must not move between the
		// kernel's readings and the fetch (afAsOfTheFetch).
		t.Run("short clients", func(t *testing.T) {
			together(t,
				check{"CPU rates", func(t *testing.T) { testShortClients(t, "hostcache.kernel.all.cpu.", "kernel.all.cpu.") }},
				check{"tcp.insegs as of the fetch", func(t *testing.T) {
					afAsOfTheFetch(t, "hostcache.network.tcp.insegs", "Tcp", "InSegs")
				}})
		})
		// Fetching every metric costs CPU that would move the figures
		// judged under the load.
		t.Run("PCP's clients", func(t *testing.T) { testClients(t, pmdaDir, load) })
		t.Run("under load", func(t *testing.T) { testUnderLoad(t, load) })
	})
}

// check is a named check for together.
type check struct {
	name string
	run  func(t *testing.T)
}

// together runs checks side by side, each a parallel subtest of t, and
// returns when all have ended.
func together(t *testing.T, checks ...check) {
	t.Helper()
	t.Run("together", func(t *testing.T) {
		for _, c := range checks {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				c.run(t)
			})
		}
	})
}

// testUnderLoad runs the checks that measure over real seconds side by
// side, while the host works: one CPU busy, a bounded loop of TCP
// transfers over loopback, a steady trickle of direct writes, one dd
// burst, and 200 processes a second started and ended (the process
// churn check).
func testUnderLoad(t *testing.T, load *underLoad) {
	load.phaseFetch, load.phaseFetchErr = ccBuild(t.TempDir(), "phasefetch")
	load.alignedFetch, load.alignedFetchErr = ccBuild(t.TempDir(), "alignedfetch")
	load.start(t)
	t.Run("figures over each client's interval", func(t *testing.T) {
		t.Parallel()
		testClientIntervals(t, load)
	})
	t.Run("fresh at every reader's fetch", func(t *testing.T) {
		t.Parallel()
		testFreshFetch(t, load)
	})
	t.Run("flight recorder", func(t *testing.T) {
		t.Parallel()
		testFlightRecorder(t, load)
	})
	// Its forks load both sides of the others' comparisons alike.
	t.Run("process churn", func(t *testing.T) {
		t.Parallel()
		testProcessChurn(t, load)
	})
}

// start starts the load and the burst; both stop once the caller and its
// subtests have ended.
func (l *underLoad) start(t *testing.T) {
	t.Helper()
	l.diskDir, l.dev = ciDiskDir(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	t.Cleanup(func() { close(stop); wg.Wait() })
	ciLoadCPU(stop, &wg)
	var err error
	if l.sent, err = ciLoadLoopback(stop, &wg); err != nil {
		t.Fatalf("loopback load: %v", err)
	}
	if l.written, err = ciLoadDisk(stop, &wg, l.diskDir); err != nil {
		t.Fatalf("disk load: %v", err)
	}
	// Two seconds for the load to settle before the first fetch.
	l.t0 = time.Now().Truncate(time.Second).Add(3*time.Second + 50*time.Millisecond)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(l.burstDone)
		select {
		case <-stop:
			return
		case <-time.After(time.Until(l.t0.Add(ciBurstAt))):
		}
		l.burst, l.burstErr = ciDDBurst(l.diskDir)
	}()
}

// waitT0 sleeps until the common start. A check that comes to it late
// would measure at another phase than the others: it fails.
func (l *underLoad) waitT0(t *testing.T) {
	t.Helper()
	if late := time.Since(l.t0); late > 20*time.Millisecond {
		t.Fatalf("the check came %v after the common start (go test -parallel below the checks' number?)", late)
	}
	time.Sleep(time.Until(l.t0))
}

// waitBurst waits for the burst to end and says what it was; a burst
// that failed fails the test.
func (l *underLoad) waitBurst(t *testing.T) string {
	t.Helper()
	<-l.burstDone
	if l.burstErr != nil {
		t.Fatalf("the burst: %v", l.burstErr)
	}
	return l.burst
}

// record asks the flight recorder for the last seconds with store, which
// runs pmstore's arguments as some user, and returns the archive it
// wrote.
func (l *underLoad) record(t *testing.T, seconds string, store func(args ...string)) string {
	t.Helper()
	l.recorder.Lock()
	defer l.recorder.Unlock()
	waitFor(t, "the flight recorder to be idle", time.Minute, func() bool {
		return values(t, "hostcache.control.record.busy")[""] == "0"
	})
	before := values(t, "hostcache.control.record.archives")[""]
	store("pmstore", "hostcache.control.record.seconds", seconds)
	waitFor(t, "the flight recorder's archive", time.Minute, func() bool {
		return values(t, "hostcache.control.record.archives")[""] != before &&
			values(t, "hostcache.control.record.busy")[""] == "0"
	})
	return strings.Trim(values(t, "hostcache.control.record.last")[""], `"`)
}
