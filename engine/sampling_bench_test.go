package engine

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// BenchmarkRunnerSample times the runner's part of one sample: the idle
// and pacing checks, the history, the budget and the publication, around
// a collector that costs next to nothing.
func BenchmarkRunnerSample(b *testing.B) {
	src := &scriptSource{}
	r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second, History: time.Minute})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Attach(cache.NewFront(schema)); err != nil {
		b.Fatal(err)
	}
	now, k := time.Now(), 0
	b.ReportAllocs()
	for b.Loop() {
		k++
		src.step, now = steady(k), now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
}
