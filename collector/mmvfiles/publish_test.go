package mmvfiles

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/mmv/mmvtest"
)

// Publishing the numbers of an unchanged file allocates nothing beyond
// what mmv.Reader.Read allocates (its fstat's FileInfo): the file is read
// into the reader's buffer and the values set through the builder's
// reused arrays.
func TestMMVPublishAllocatesNothingForNumbers(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	s := ownSpec(3)
	numbers := s.Metrics[:0]
	for _, m := range s.Metrics {
		if m.Type != mmvtest.TypeString {
			numbers = append(numbers, m)
		}
	}
	s.Metrics = numbers
	r.write("app", s)
	r.scanQuiet()
	schema, err := cache.NewSchema(r.files.source())
	if err != nil {
		t.Fatal(err)
	}
	b := schema.NewBuilder(0, r.now)
	reader := r.files.cat.load().parts[0].reader
	read := testing.AllocsPerRun(100, func() { reader.Read() })
	reset := testing.AllocsPerRun(100, func() { b.Reset(r.now) })
	both := testing.AllocsPerRun(100, func() {
		b.Reset(r.now)
		r.files.publish(b, r.now)
	})
	if both != reset+read {
		t.Errorf("publish allocates %v times a sample, the read %v of them", both-reset, read)
	}
	if p, err := b.Part(); err != nil || len(p.AppendValues(nil, 0)) == 0 {
		t.Errorf("the last sample: %v", err)
	}
}

// mmvTestCollector runs the catalog as the engine runs a collector, with
// the metric set of its one scan.
type mmvTestCollector struct{ files *mmvFiles }

func (c mmvTestCollector) Name() string         { return "mmv" }
func (c mmvTestCollector) Source() cache.Source { return c.files.source() }
func (c mmvTestCollector) Sample(b *cache.Builder, now time.Time) error {
	c.files.publish(b, now)
	return nil
}

// Through the engine, a file's counters get rates and its instant numbers
// peaks, as any collector's do.
func TestMMVRatesAndPeaksThroughTheEngine(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	b := r.write("app", ownSpec(2))
	r.scanQuiet()
	h := &collectortest.Harness{T: t}
	h.Attach(func(engine.Env) (engine.Collector, error) { return mmvTestCollector{r.files}, nil }, engine.Env{})
	h.MustSample(t0)
	b.SetBits(b.Find("u32", ""), 4000000100)
	b.SetBits(b.Find("u64", "two"), 2+4096)
	b.SetBits(b.Find("i32", ""), 40)
	r.rewrite("app", b)
	h.MustSample(t1)
	h.WantFloat("rate.mmv.app.u32", cache.InstNone, 50)
	h.WantFloat("rate.mmv.app.u64", 2, 2048)
	h.WantFloat("rate.mmv.app.u64", 1, 0)
	if got := int64(h.U64("max.mmv.app.i32", cache.InstNone)); got != 40 {
		t.Errorf("max.mmv.app.i32 = %d, want 40", got)
	}
	if got := int64(h.U64("min.mmv.app.i32", cache.InstNone)); got != 40 {
		t.Errorf("min.mmv.app.i32 = %d, want 40, the newest step's end", got)
	}
	if d := h.Desc("rate.mmv.app.u64"); d.ID != cache.NewMetricID(775, 3+engine.RateItemOffset) || d.InDom != things {
		t.Errorf("rate.mmv.app.u64: %s in %d", d.ID, d.InDom)
	}
}
