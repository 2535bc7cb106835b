package engine

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// BenchmarkHistoryAdd samples a 256-disk-like source (23 counters, every
// value growing each sample) into its history: the sampler's per-value
// cost of watching counters for resets.
func BenchmarkHistoryAdd(b *testing.B) {
	src := newWideSource(23, 256)
	r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second, History: 2 * time.Minute})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Attach(cache.NewFront(schema)); err != nil {
		b.Fatal(err)
	}
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(23*256), "values/op")
}
