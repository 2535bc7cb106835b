package engine

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

var (
	carryCount   = Metric("hostcache.carry.count", 910, 5, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	carryCount32 = Metric("hostcache.carry.count", 910, 5, cache.TypeU32, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	carryLevel   = WithPeaks(Metric("hostcache.carry.level", 910, 6, cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone))
	carryNew     = Metric("hostcache.carry.new", 910, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	// carryClash takes the static scripted source's PMID: no schema can
	// hold it beside that source.
	carryClash = Metric("hostcache.carry.clash", scriptedValue.ID.Cluster(), scriptedValue.ID.Item(), cache.TypeU64, cache.SemInstant, cache.UnitsCount, cache.InDomNone)
)

// growing is a dynamic source whose counter grows by 10 times the
// sample's number (so a window's rate differs from its last step's) and
// whose level is levels[sample], 1 otherwise. Its next Refresh places
// what want says: a new counter listed first (so every figure of the
// others moves), or the counter as a U32 (a changed descriptor).
type growing struct {
	want, placed struct{ withNew, count32, clash bool }
	levels       map[int]uint64
	i            int
	count        uint64
}

func (g *growing) Name() string { return "carry" }

func (g *growing) Source() cache.Source {
	count := carryCount
	if g.placed.count32 {
		count = carryCount32
	}
	ms := []cache.Desc{count, carryLevel}
	if g.placed.withNew {
		ms = append([]cache.Desc{carryNew}, ms...)
	}
	if g.placed.clash {
		ms = append(ms, carryClash)
	}
	return cache.Source{Name: "carry", Metrics: ms}
}

func (g *growing) Refresh(time.Time) bool {
	changed := g.want != g.placed
	g.placed = g.want
	return changed
}

func (g *growing) Sample(b *cache.Builder, _ time.Time) error {
	g.i++
	g.count += 10 * uint64(g.i)
	b.SetU64(carryCount.ID, cache.InstNone, g.count)
	level, ok := g.levels[g.i]
	if !ok {
		level = 1
	}
	b.SetU64(carryLevel.ID, cache.InstNone, level)
	if g.placed.withNew {
		b.SetU64(carryNew.ID, cache.InstNone, 3*g.count)
	}
	if g.placed.clash {
		b.SetU64(carryClash.ID, cache.InstNone, 7)
	}
	return nil
}

// carryRig runs a growing source alone, one sample a second from t0.
type carryRig struct {
	t     *testing.T
	g     *growing
	r     *Runner
	front *cache.Front
	t0    time.Time
}

func newCarryRig(t *testing.T, others ...Collector) *carryRig {
	return newCarryRigLog(t, zerolog.Nop(), others...)
}

// newCarryRigLog is newCarryRig with the runner logging to log.
func newCarryRigLog(t *testing.T, log zerolog.Logger, others ...Collector) *carryRig {
	g := &growing{levels: map[int]uint64{}}
	r, front := attachedRunner(t, log, time.Second, append(others, g)...)
	return &carryRig{t: t, g: g, r: r, front: front, t0: time.Now()}
}

func (c *carryRig) at(i int) time.Time { return c.t0.Add(time.Duration(i) * time.Second) }

// sample takes sample i (numbered from 1, as growing counts them).
func (c *carryRig) sample(i int) {
	c.t.Helper()
	if err := c.r.SampleAt(c.at(i)); err != nil {
		c.t.Fatal(err)
	}
}

// entry is the growing source's runner entry.
func (c *carryRig) entry() *entry { return c.r.entries[len(c.r.entries)-1] }

// fetch reads name for client at sample i's time: its one value, or
// false for none.
func (c *carryRig) fetch(name string, client int32, i int) (cache.Value, bool) {
	c.t.Helper()
	snap := c.front.Load()
	d, ok := snap.Schema.Lookup(name)
	if !ok {
		c.t.Fatalf("no %s", name)
	}
	q := cache.Request{Snap: snap, Now: c.at(i), Client: client}
	v := q.AppendValues(nil, d)
	if len(v) != 1 {
		return cache.Value{}, false
	}
	return v[0], true
}

// A client's window that spans a change of the source's metrics keeps
// the unchanged metrics' figures over the whole window: the rate from
// the client's previous fetch, the highest step rate and the highest
// level inside it, though every figure moved to a new place.
func TestCarryKeepsWindowsAcrossAChange(t *testing.T) {
	c := newCarryRig(t)
	c.g.levels[3] = 999 // a peak before the change
	c.sample(1)
	c.sample(2)
	for _, n := range []string{"hostcache.rate.carry.count", "hostcache.max.rate.carry.count", "hostcache.max.carry.level"} {
		c.fetch(n, 1, 2) // client 1's window starts at sample 2
	}
	c.sample(3)
	c.g.want.withNew = true
	c.sample(4)
	c.sample(5)
	// count after sample i is 10 * i(i+1)/2: 30 at 2, 150 at 5.
	if v, ok := c.fetch("hostcache.rate.carry.count", 1, 5); !ok || v.Double() != 40 {
		t.Errorf("rate over samples 2 to 5: %v %v, want (150-30)/3 = 40", v.Double(), ok)
	}
	if v, ok := c.fetch("hostcache.max.rate.carry.count", 1, 5); !ok || v.Double() != 50 {
		t.Errorf("highest step rate over samples 2 to 5: %v %v, want 50", v.Double(), ok)
	}
	if v, ok := c.fetch("hostcache.max.carry.level", 1, 5); !ok || v.Bits != 999 {
		t.Errorf("highest level over samples 2 to 5: %v %v, want 999 from before the change", v.Bits, ok)
	}
	// The new counter has no sample before the change: a client new to
	// it gets its newest step.
	if v, ok := c.fetch("hostcache.rate.carry.new", 1, 5); !ok || v.Double() != 150 {
		t.Errorf("rate of the new counter: %v %v, want 3*50", v.Double(), ok)
	}
}

// A metric whose descriptor changed keeps none of its samples: its rate
// starts again from the change, as a new metric's does.
func TestCarryDropsAChangedMetric(t *testing.T) {
	c := newCarryRig(t)
	c.sample(1)
	c.sample(2)
	c.fetch("hostcache.rate.carry.count", 1, 2)
	c.fetch("hostcache.max.carry.level", 1, 2)
	c.sample(3)
	c.g.want.count32 = true
	c.sample(4)
	c.sample(5)
	if v, ok := c.fetch("hostcache.rate.carry.count", 1, 5); !ok || v.Double() != 50 {
		t.Errorf("rate of the changed counter over 2 to 5: %v %v, want 50 from its samples since the change", v.Double(), ok)
	}
	if v, ok := c.fetch("hostcache.max.carry.level", 1, 5); !ok || v.Bits != 1 {
		t.Errorf("the unchanged level: %v %v", v.Bits, ok)
	}
	h := c.entry().hist()
	if h.held() != 5 {
		t.Errorf("the history holds %d samples, want 5", h.held())
	}
}

// A read through a snapshot of the schema before the change gives no
// figure: its figures' client marks are other figures' now.
func TestCarryOldSchemaGivesNoFigure(t *testing.T) {
	c := newCarryRig(t)
	c.sample(1)
	c.sample(2)
	old := c.front.Load()
	d, _ := old.Schema.Lookup("hostcache.rate.carry.count")
	c.g.want.withNew = true
	c.sample(3)
	q := cache.Request{Snap: old, Now: c.at(3), Client: 1}
	if v := q.AppendValues(nil, d); len(v) != 0 {
		t.Errorf("a figure through the old schema: %v", v)
	}
	if _, ok := c.fetch("hostcache.rate.carry.count", 1, 3); !ok {
		t.Error("no figure through the new schema")
	}
}

// The flight recorder's view after a change holds the samples from
// before it too, in the new metrics' order: the new metric without
// values there. The memory the history counts is its samples'.
func TestCarryRecorderAndMemory(t *testing.T) {
	c := newCarryRig(t)
	for i := 1; i <= 3; i++ {
		c.sample(i)
	}
	c.g.want.withNew = true
	c.sample(4)
	var sh *SourceHistory
	for _, x := range c.r.History(c.t0) {
		if x.Name == "carry" {
			sh = &x
		}
	}
	if sh == nil || len(sh.Samples) != 4 || len(sh.Metrics) != 3 {
		t.Fatalf("the recorder's view: %+v", sh)
	}
	for k, s := range sh.Samples {
		for m, d := range sh.Metrics {
			_, bits := s.Values(m)
			want := 1
			if d.Name == carryNew.Name && k < 3 {
				want = 0
			}
			if len(bits) != want {
				t.Errorf("sample %d, %s: %d values, want %d", k, d.Name, len(bits), want)
			}
			if d.Name == carryCount.Name && len(bits) == 1 && bits[0] != uint64(5*(k+1)*(k+2)) {
				t.Errorf("sample %d, count %d", k, bits[0])
			}
		}
	}
	h := c.entry().hist()
	var sum int64
	for seq := h.first; seq < h.next.Load(); seq++ {
		sum += sampleBytes(h.at(seq))
	}
	if got := h.bytes.Load(); got != sum {
		t.Errorf("the history counts %d bytes, its samples hold %d", got, sum)
	}
}

// A change the schema refuses keeps the source's old metrics, which go
// on publishing fresh values and rates; the value of the metric refused
// is left out, not the whole sample, and said once, not every sample.
func TestCarryRefusedChangeKeepsPublishing(t *testing.T) {
	var logged bytes.Buffer
	c := newCarryRigLog(t, zerolog.New(&logged), &scripted{name: "static"})
	c.sample(1)
	c.sample(2)
	c.g.want.clash = true
	c.sample(3)
	c.sample(4)
	if _, ok := c.front.Schema().Lookup(carryClash.Name); ok {
		t.Fatal("the refused metric is in the schema")
	}
	if v, ok := c.fetch(carryCount.Name, 1, 4); !ok || v.Bits != 100 {
		t.Errorf("the counter after a refused change: %v %v, want 100", v.Bits, ok)
	}
	if v, ok := c.fetch("hostcache.rate.carry.count", 1, 4); !ok || v.Double() != 40 {
		t.Errorf("its rate: %v %v, want 40", v.Double(), ok)
	}
	if n, _ := c.entry().builder.Skipped(); n != 1 {
		t.Errorf("%d values left out, want the refused metric's 1", n)
	}
	for i := 5; i <= 12; i++ {
		// As the loop samples: a sample that succeeds clears warnOnce's
		// memory of the last failure.
		c.r.sampleOnce(c.entry(), time.Now(), false)
	}
	for _, said := range []string{"values of metrics the schema does not hold were left out", "the source's new metrics were refused"} {
		if n := strings.Count(logged.String(), said); n != 1 {
			t.Errorf("%q logged %d times over 10 samples, want once", said, n)
		}
	}
}
