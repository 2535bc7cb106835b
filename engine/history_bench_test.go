package engine

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// boundedWide is the wide source with every counter bounded (never
// reached): by a constant, or by a count per instance.
type boundedWide struct {
	*wideSource
	perInstance bool
}

func (w *boundedWide) Bounds() []Bounded {
	b := Bound{PerSecond: 1e12, Slack: 50 * time.Millisecond}
	if w.perInstance {
		b.UnitsOf = func(inst uint32) uint64 { return uint64(inst) + 1 }
	}
	var out []Bounded
	for _, d := range w.descs {
		out = append(out, WithBound(d, b))
	}
	return out
}

// newWideRig attaches src (23 counters x 256 instances), with its
// history bound by Attach as the runner binds it, and samples it 100 times.
func newWideRig(b *testing.B, src Collector) (*Runner, *cache.Front, time.Time) {
	r := NewRunner(zerolog.Nop(), []Collector{src}, Schedule{Default: time.Second, History: 2 * time.Minute})
	schema, err := cache.NewSchema(r.Sources()...)
	if err != nil {
		b.Fatal(err)
	}
	front := cache.NewFront(schema)
	if err := r.Attach(front); err != nil {
		b.Fatal(err)
	}
	now := t0
	for range 100 {
		now = now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
	return r, front, now
}

// wideSources are the wide source unbounded, bounded by a constant, and
// bounded per instance.
func wideSources() map[string]func() Collector {
	return map[string]func() Collector{
		"unbounded":   func() Collector { return newWideSource(23, 256) },
		"bounded":     func() Collector { return &boundedWide{wideSource: newWideSource(23, 256)} },
		"perinstance": func() Collector { return &boundedWide{wideSource: newWideSource(23, 256), perInstance: true} },
	}
}

// BenchmarkHistoryAdd samples a 256-disk-like source (23 counters, every
// value growing each sample) into its history: the sampler's per-value
// cost of watching counters for resets and bounds.
func BenchmarkHistoryAdd(b *testing.B) {
	for _, name := range []string{"unbounded", "bounded", "perinstance"} {
		b.Run(name, func(b *testing.B) {
			r, _, now := newWideRig(b, wideSources()[name]())
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Second)
				if err := r.SampleAt(now); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(23*256), "values/op")
		})
	}
}

// BenchmarkRatesOverResets reads every rate of the wide source over 10
// steps when one of them holds a reset of every counter: the walk a
// window pays when a step of it is left out.
func BenchmarkRatesOverResets(b *testing.B) {
	src := newWideSource(23, 256)
	r, front, now := newWideRig(b, src)
	k := src.k
	src.k = 1 // every counter back near 0: one reset step
	now = now.Add(time.Second)
	if err := r.SampleAt(now); err != nil {
		b.Fatal(err)
	}
	src.k = k
	for range 5 {
		now = now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			b.Fatal(err)
		}
	}
	var rates []*cache.Desc
	for _, d := range src.descs {
		rd, _ := front.Schema().Desc(RateID(d.ID))
		rates = append(rates, rd)
	}
	q := cache.Request{Snap: front.Load(), Now: now, Client: 1}
	dst := make([]cache.Value, 0, 256)
	for _, d := range rates {
		dst = q.AppendValues(dst[:0], d)
	}
	end := r.entries[0].hist().newest().seq
	marks := r.figures.clients.byID[1]
	b.ReportAllocs()
	for b.Loop() {
		for i := range marks.seen {
			marks.seen[i] = end - 10 + 1
		}
		for _, d := range rates {
			dst = q.AppendValues(dst[:0], d)
		}
	}
	if len(dst) == 0 {
		b.Fatal("no rates over the window")
	}
	b.ReportMetric(float64(len(rates)*256), "values/op")
}
