package proc

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// BenchmarkSampleHost samples this host's own /proc: the cost of one
// sample of every process, for the figures make bench compares with a
// plain loop over the same files.
func BenchmarkSampleHost(b *testing.B) {
	t := &testing.T{}
	h := &collectortest.Harness{T: t, Proc: "/proc"}
	h.Attach(NewProcessCollector, engine.Env{Proc: "/proc"})
	now := time.Now()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Second)
		if err := h.Runner.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(h.U64("proc.nprocs", 0xffffffff)), "processes")
}
