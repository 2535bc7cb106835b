package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// wideSource is a disk-like source: counters × instances, every counter
// growing each sample.
type wideSource struct {
	descs []cache.Desc
	insts int
	k     uint64
}

func newWideSource(counters, insts int) *wideSource {
	w := &wideSource{insts: insts}
	for i := range counters {
		w.descs = append(w.descs, Metric(fmt.Sprintf("hostcache.bench.c%d", i), 20, uint32(i), cache.TypeU64, cache.SemCounter, cache.UnitsCount, 20))
	}
	return w
}

func (w *wideSource) Name() string { return "wide" }
func (w *wideSource) Source() cache.Source {
	return cache.Source{Name: "wide", Metrics: w.descs, InDoms: []cache.InDomDesc{{ID: 20, Name: "wide"}}}
}
func (w *wideSource) Sample(b *cache.Builder, _ time.Time) error {
	w.k++
	for i, d := range w.descs {
		for inst := range w.insts {
			b.SetU64(d.ID, uint32(inst), w.k*uint64(inst+i+1))
		}
	}
	return nil
}

// BenchmarkWindowedRates reads every rate of a 256-disk-like source (23
// counters) for a client whose interval spans 1, 10 or 60 samples: the
// cost of a pmlogger fetch of the rates at 1 s, 10 s and 60 s.
func BenchmarkWindowedRates(b *testing.B) {
	for _, steps := range []int{1, 10, 60} {
		b.Run(fmt.Sprintf("steps=%d", steps), func(b *testing.B) {
			src := newWideSource(23, 256)
			r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second, History: 2 * time.Minute})
			schema, err := cache.NewSchema(r.Sources()...)
			if err != nil {
				b.Fatal(err)
			}
			front := cache.NewFront(schema)
			if err := r.Attach(front); err != nil {
				b.Fatal(err)
			}
			var rates []*cache.Desc
			for _, d := range src.descs {
				rd, _ := schema.Desc(RateID(d.ID))
				rates = append(rates, rd)
			}
			now := t0
			for range 100 {
				now = now.Add(time.Second)
				if err := r.SampleAt(now); err != nil {
					b.Fatal(err)
				}
			}
			q := cache.Request{Snap: front.Load(), Now: now, Client: 1}
			dst := make([]cache.Value, 0, 256)
			end := r.entries[0].hist().newest().seq
			for _, d := range rates {
				dst = q.AppendValues(dst[:0], d) // the client's first fetch
			}
			marks := r.figures.clients.byID[1]
			b.ReportAllocs()
			for b.Loop() {
				// Put the client's marks steps back, as a client fetching
				// every steps samples has them.
				for k := range marks.seen {
					marks.seen[k] = end - uint64(steps) + 1
				}
				for _, d := range rates {
					dst = q.AppendValues(dst[:0], d)
				}
			}
			b.ReportMetric(float64(len(rates)*256), "values/op")
		})
	}
}
