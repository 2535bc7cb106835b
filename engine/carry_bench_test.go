package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// toggling is a dynamic source of n counters that gains or loses one
// more at each Refresh while flip is set: a file coming and going.
type toggling struct {
	n           int
	flip, extra bool
	i           uint64
}

func (s *toggling) Name() string { return "toggling" }

func (s *toggling) Source() cache.Source {
	src := cache.Source{Name: "toggling"}
	for i := range s.n + btoi(s.extra) {
		src.Metrics = append(src.Metrics, Metric(fmt.Sprintf("hostcache.toggling.c%d", i), manyCluster(i), uint32(i%500),
			cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone))
	}
	return src
}

func (s *toggling) Refresh(time.Time) bool {
	if s.flip {
		s.extra = !s.extra
	}
	return s.flip
}

func (s *toggling) Sample(b *cache.Builder, _ time.Time) error {
	s.i++
	for i := range s.n + btoi(s.extra) {
		b.SetU64(cache.NewMetricID(manyCluster(i), uint32(i%500)), cache.InstNone, s.i*uint64(i+1))
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BenchmarkDynamicChange is a sample of a dynamic source of 1000
// counters with 15 minutes of history at 1 s, with (change) and without
// (steady) a change of its metrics before it: the difference is the
// cost of a new schema and of carrying the history over.
func BenchmarkDynamicChange(b *testing.B) {
	for _, change := range []bool{false, true} {
		name := map[bool]string{false: "steady", true: "change"}[change]
		b.Run(name, func(b *testing.B) {
			src := &toggling{n: 1000}
			r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second})
			schema, err := cache.NewSchema(r.Sources()...)
			if err != nil {
				b.Fatal(err)
			}
			if err := r.Attach(cache.NewFront(schema)); err != nil {
				b.Fatal(err)
			}
			now := time.Unix(1e9, 0)
			for range 901 {
				now = now.Add(time.Second)
				if err := r.SampleAt(now); err != nil {
					b.Fatal(err)
				}
			}
			src.flip = change
			b.ResetTimer()
			for range b.N {
				now = now.Add(time.Second)
				if err := r.SampleAt(now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
