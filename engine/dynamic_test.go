package engine

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

var (
	dynCountA = Metric("hostcache.dyn.a", 900, 0, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
	dynCountB = Metric("hostcache.dyn.b", 900, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone)
)

// dynamicSource counts up its metrics by 10 a sample; withB adds a second
// counter from the next Refresh on.
type dynamicSource struct {
	withB   atomic.Bool
	placedB bool
	n       uint64
}

func (d *dynamicSource) Name() string { return "dyn" }
func (d *dynamicSource) Source() cache.Source {
	ms := []cache.Desc{dynCountA}
	if d.placedB {
		ms = append(ms, dynCountB)
	}
	return cache.Source{Name: "dyn", Metrics: ms}
}
func (d *dynamicSource) Refresh(time.Time) bool {
	if d.withB.Load() == d.placedB {
		return false
	}
	d.placedB = d.withB.Load()
	return true
}
func (d *dynamicSource) Sample(b *cache.Builder, _ time.Time) error {
	d.n += 10
	b.SetU64(dynCountA.ID, cache.InstNone, d.n)
	if d.placedB {
		b.SetU64(dynCountB.ID, cache.InstNone, 2*d.n)
	}
	return nil
}

// rateOfName fetches hostcache.rate.X for client at now.
func rateOfName(t *testing.T, front *cache.Front, name string, client int32, now time.Time) (float64, bool) {
	t.Helper()
	snap := front.Load()
	d, ok := snap.Schema.Lookup(name)
	if !ok {
		return 0, false
	}
	q := cache.Request{Snap: snap, Now: now, Client: client}
	v := q.AppendValues(nil, d)
	if len(v) != 1 {
		return 0, false
	}
	return v[0].Double(), true
}

// A dynamic source's new metric and its rate appear at the sample after
// Refresh says so; a static source beside it keeps its values, history
// and rates throughout; the unchanged metric keeps its samples, so a
// window spans the change.
func TestDynamicSourceChangesItsMetrics(t *testing.T) {
	dyn := &dynamicSource{}
	static := &scripted{name: "static"}
	r, front := attachedRunner(t, zerolog.Nop(), time.Second, static, dyn)
	t0 := time.Now()
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	for i := range 3 {
		if err := r.SampleAt(at(i)); err != nil {
			t.Fatal(err)
		}
	}
	if v, ok := rateOfName(t, front, "hostcache.rate.dyn.a", 1, at(2)); !ok || v != 10 {
		t.Fatalf("rate of a before the change: %v %v", v, ok)
	}
	if _, ok := front.Schema().Lookup("hostcache.dyn.b"); ok {
		t.Fatal("b before it was placed")
	}
	dyn.withB.Store(true)
	if err := r.SampleAt(at(3)); err != nil {
		t.Fatal(err)
	}
	if _, ok := front.Schema().Lookup("hostcache.rate.dyn.b"); !ok {
		t.Fatal("no rate of b after the change")
	}
	if v, ok := rateOfName(t, front, "hostcache.rate.dyn.a", 1, at(3)); !ok || v != 10 {
		t.Errorf("rate of a over the window that spans the change: %v %v, want 10", v, ok)
	}
	for i := 4; i < 6; i++ {
		if err := r.SampleAt(at(i)); err != nil {
			t.Fatal(err)
		}
	}
	if h := r.entries[1].hist(); h.held() != 6 {
		t.Errorf("the new history holds %d samples, want the 3 before the change and the 3 since", h.held())
	}
	if v, ok := rateOfName(t, front, "hostcache.rate.dyn.b", 1, at(5)); !ok || v != 20 {
		t.Errorf("rate of b after the change: %v %v, want 20", v, ok)
	}
	if v, ok := rateOfName(t, front, "hostcache.rate.dyn.a", 1, at(5)); !ok || v != 10 {
		t.Errorf("rate of a after the change: %v %v, want 10", v, ok)
	}
	snap := front.Load()
	d, _ := snap.Schema.Lookup(scriptedValue.Name)
	if v := snap.AppendValues(nil, d, at(5)); len(v) != 1 || v[0].Bits != 6 {
		t.Errorf("the static source's value after the change: %v", v)
	}
	dyn.withB.Store(false)
	if err := r.SampleAt(at(6)); err != nil {
		t.Fatal(err)
	}
	if _, ok := front.Schema().Lookup("hostcache.dyn.b"); ok {
		t.Error("b after it went")
	}
	hist := r.History(t0)
	for _, sh := range hist {
		if sh.Name == "dyn" && (len(sh.Metrics) != 1 || sh.Metrics[0].Name != "hostcache.dyn.a") {
			t.Errorf("the recorder's view of dyn: %v", sh.Metrics)
		}
	}
}

// Reading a dynamic source's values and figures after a change allocates
// nothing once a client is known, as any source's.
func TestDynamicSourceReadsDoNotAllocate(t *testing.T) {
	dyn := &dynamicSource{}
	dyn.withB.Store(true)
	r, front := newTestRunner(t, dyn, time.Second)
	t0 := time.Now()
	for i := range 5 {
		if err := r.SampleAt(t0.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	snap := front.Load()
	var descs []*cache.Desc
	for _, n := range []string{"hostcache.dyn.b", "hostcache.rate.dyn.b", "hostcache.max.rate.dyn.b"} {
		d, ok := snap.Schema.Lookup(n)
		if !ok {
			t.Fatalf("no %s", n)
		}
		descs = append(descs, d)
	}
	q := cache.Request{Snap: snap, Now: t0.Add(4 * time.Second), Client: 3}
	dst := make([]cache.Value, 0, 16)
	read := func() {
		for _, d := range descs {
			dst = q.AppendValues(dst[:0], d)
		}
	}
	read()
	if n := testing.AllocsPerRun(100, read); n != 0 {
		t.Errorf("%v allocations per read of a dynamic source's metrics", n)
	}
}

// manySource places n counters at its first Refresh.
type manySource struct {
	n      int
	placed bool
}

func (w *manySource) Name() string { return "many" }
func (w *manySource) Source() cache.Source {
	src := cache.Source{Name: "many"}
	if w.placed {
		for i := range w.n {
			src.Metrics = append(src.Metrics, Metric(fmt.Sprintf("hostcache.many.c%d", i), manyCluster(i), uint32(i%500), cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone))
		}
	}
	return src
}
func (w *manySource) Refresh(time.Time) bool {
	changed := !w.placed
	w.placed = true
	return changed
}
func (w *manySource) Sample(b *cache.Builder, now time.Time) error {
	if w.placed {
		for i := range w.n {
			b.SetU64(cache.NewMetricID(manyCluster(i), uint32(i%500)), cache.InstNone, uint64(now.Unix())*uint64(i+1))
		}
	}
	return nil
}

// manyCluster is counter i's cluster: 500 a cluster, below their rates.
func manyCluster(i int) uint32 { return 920 + uint32(i/500) }

// A dynamic source with more figures than DynamicWindowed keeps the
// figures of the metrics it lists first and leaves the rest out; its
// metrics all publish.
func TestDynamicSourceFiguresAreBounded(t *testing.T) {
	n := DynamicWindowed/3 + 10 // a rate and its two peaks each
	r, front := newTestRunner(t, &manySource{n: n}, time.Second)
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if err := r.SampleAt(t0.Add(time.Duration(i) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	last := (DynamicWindowed - 1) / 3 // its rate is the last figure kept
	if v, ok := rateOfName(t, front, fmt.Sprintf("hostcache.rate.many.c%d", last), 1, t0.Add(2*time.Second)); !ok || v != float64(last+1) {
		t.Errorf("rate of the last metric with figures: %v %v", v, ok)
	}
	for _, name := range []string{fmt.Sprintf("hostcache.max.rate.many.c%d", last), fmt.Sprintf("hostcache.rate.many.c%d", last+1)} {
		if _, ok := front.Schema().Lookup(name); ok {
			t.Errorf("%s past the bound", name)
		}
	}
	if _, ok := front.Schema().Lookup(fmt.Sprintf("hostcache.many.c%d", n-1)); !ok {
		t.Error("the last metric itself is missing")
	}
}
