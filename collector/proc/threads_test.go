package proc

import (
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Every thread of the fixture is an instance of the threads view, named
// as pmdaproc names a thread (its id in six digits and its process's
// command), with its own values: the leader 300's utime is its thread's
// 50 ms, not the process's 300 ms, and nprocs and runq count threads.
func TestThreadsFromFixture(t *testing.T) {
	h := collectortest.NewHarness(t, newThreadCollector, "threads/t0")
	h.MustSample(collectortest.T0)
	want := map[uint32]string{1: "000001 /sbin/init", 2: "000002 (kthreadd)", 100: "000100 -bash",
		300: "000300 sleep", 301: "000301 sleep", 302: "000302 sleep"}
	got := h.Instances(indomThreads)
	if len(got) != len(want) {
		t.Fatalf("instances %v, want %v", got, want)
	}
	for _, x := range got {
		if want[x.ID] != x.Name {
			t.Errorf("instance %d is %q, want %q", x.ID, x.Name, want[x.ID])
		}
	}
	h.WantU64("proc.threads.nprocs", cache.InstNone, 6)
	h.WantU64("proc.threads.runq.sleeping", cache.InstNone, 5)
	for tid, ms := range map[uint32]uint64{300: 50, 301: 100, 302: 150} {
		h.WantU64("proc.threads.psinfo.utime", tid, ms)
		h.WantU64("proc.threads.psinfo.pid", tid, uint64(tid))
	}
	h.WantU64("proc.threads.id.uid", 301, 1000) // from the thread's status
	// A thread that is not its group's leader has exit_signal -1.
	h.WantU64("proc.threads.psinfo.exit_signal", 301, 0xffffffff)
	h.WantU64("proc.threads.psinfo.exit_signal", 300, 17)
	if v := h.MustValue("proc.threads.psinfo.psargs", 301); v.Str != "sleep 100" {
		t.Errorf("psargs of thread 301 = %q", v.Str)
	}
}

// The process collector on the same tree gives the process's sums: the
// threads view is the only place the threads appear.
func TestProcessesBesideThreads(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "threads/t0")
	h.MustSample(collectortest.T0)
	h.WantU64("proc.nprocs", cache.InstNone, 4)
	h.WantU64("proc.psinfo.utime", 300, 300)
	h.WantAbsent("proc.psinfo.utime", 301)
}

// While no client reads the threads (the engine's pace above 1), the
// collector reads nothing and publishes no value.
func TestThreadsReadNothingWhileUnread(t *testing.T) {
	h := collectortest.NewHarness(t, newThreadCollector, "threads/t0")
	h.MustSample(collectortest.T0)
	h.WantU64("proc.threads.nprocs", cache.InstNone, 6)
	// The engine tells a Paced collector its factor when it changes.
	h.C.(engine.Paced).Pace(engine.DefaultIdleFactor)
	h.MustSample(collectortest.T1)
	if n := h.Published("proc.threads."); n != 0 {
		t.Errorf("unread threads published %d values", n)
	}
	h.C.(engine.Paced).Pace(1)
	h.MustSample(collectortest.T1.Add(2 * time.Second))
	h.WantU64("proc.threads.nprocs", cache.InstNone, 6)
}

// Each threads view mirrors its process metric: the same type, semantics,
// units and access, in the threads domain where the metric is in the
// process domain; the schema finds it from the process metric, rates
// included, and a client looks up no name of it.
func TestThreadViewsMirrorTheProcesses(t *testing.T) {
	h, _ := newAllHarness(t, "threads/t0")
	schema := h.Store.Schema()
	views := 0
	for _, d := range schema.Descs() {
		if d.Threads || !strings.HasPrefix(d.Name, processPrefix) || d.Control != cache.ControlNone {
			continue
		}
		v, ok := schema.ThreadView(d.ID)
		if !ok {
			continue // the groups' metrics have no threads view
		}
		views++
		indom := d.InDom
		if indom == indomProcess {
			indom = indomThreads
		}
		if !v.Threads || v.ThreadsOf != d.ID || v.Type != d.Type || v.Sem != d.Sem || v.Units != d.Units ||
			v.Access != d.Access || v.InDom != indom {
			t.Errorf("%s: threads view %+v", d.Name, v)
		}
	}
	if n := len(processMetrics()); views != n {
		t.Errorf("%d threads views for %d process metrics", views, n)
	}
	for _, d := range processMetrics() {
		if d.Sem != cache.SemCounter {
			continue
		}
		v, ok := schema.ThreadView(engine.RateID(d.ID))
		if !ok || v.ID != engine.RateID(shifted(d.ID, threadShift)) || v.InDom != indomThreads {
			t.Errorf("the rate of %s has threads view %+v", d.Name, v)
		}
	}
	if in, ok := schema.ThreadInDom(indomProcess); !ok || in != indomThreads {
		t.Errorf("the process domain's threads view is %d %v", in, ok)
	}
}

// A thread's counters have rates of their own, as a process's: thread
// 301 used 200 ms of CPU in the 2 s between the samples.
func TestThreadRates(t *testing.T) {
	h := collectortest.NewHarness(t, newThreadCollector, "threads/t0")
	h.MustSample(collectortest.T0)
	h.Use("threads/t1")
	h.MustSample(collectortest.T1)
	h.WantFloat("rate.proc.threads.psinfo.utime", 301, 0.1)
	h.WantFloat("rate.proc.threads.psinfo.utime", 302, 0)
}
