package proc

import (
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// BenchmarkSampleHost samples this host's own /proc: the cost of one
// sample of every process after the first, for the figures make bench compares with a
// plain loop over the same files.
func BenchmarkSampleHost(b *testing.B) {
	t := &testing.T{}
	h := &collectortest.Harness{T: t, Proc: "/proc"}
	h.Attach(NewProcessCollector, engine.Env{Proc: "/proc"})
	now := time.Now()
	// The first sample finds every process new and sizes the builder:
	// the agent pays it once, the benchmark not at all.
	if err := h.Runner.SampleAt(now); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Second)
		if err := h.Runner.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(h.U64("proc.nprocs", 0xffffffff)), "processes")
}

// BenchmarkSampleGroupHost samples each group of this host's processes
// (those the process collector listed): what a group costs a sample
// while clients read it. Unread, a group reads nothing.
func BenchmarkSampleGroupHost(b *testing.B) {
	h, cs := newAllHarness(&testing.T{}, "processes/t0")
	env := engine.Env{Proc: "/proc"}
	shared := &board{}
	main, err := newProcessCollector(env, shared)
	if err != nil {
		b.Fatal(err)
	}
	schema := h.Store.Schema()
	now := time.Now()
	if err := main.Sample(schema.NewBuilder(0, now), now); err != nil {
		b.Fatal(err)
	}
	for i, g := range groups {
		src, _ := schema.SourceIndex(g.name)
		c, err := groupFactory(g.name, g.make, shared)(env)
		if err != nil || cs[i+1].Name() != g.name {
			b.Fatalf("%s: %v", g.name, err)
		}
		b.Run(g.name, func(b *testing.B) {
			builder := schema.NewBuilder(src, now)
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Second)
				builder.Reset(now)
				if err := c.Sample(builder, now); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(shared.read(nil))), "processes")
		})
	}
}

// BenchmarkFloorHost reads what a process sample reads of this host's
// processes (stat, status, statm, io, schedstat, and a stat of each
// process's directory) and parses nothing: the floor BenchmarkSampleHost
// is held to, as bench procs holds the agent's background CPU to it.
func BenchmarkFloorHost(b *testing.B) {
	lister := kernel.PIDLister{Root: "/proc"}
	var pids []int32
	rd := reader{root: "/proc"}
	buf := make([]byte, 0, 8192)
	var st syscall.Stat_t
	for b.Loop() {
		pids, _ = lister.List(pids)
		for _, pid := range pids {
			for _, name := range [...]string{"stat", "status", "statm", "io", "schedstat"} {
				buf, _ = kernel.ReadFileInto(rd.pathOf(pid, name), buf)
			}
			syscall.Stat(rd.pathOf(pid, ""), &st)
		}
	}
	b.ReportMetric(float64(len(pids)), "processes")
}
