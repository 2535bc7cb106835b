package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// gated is a collector whose samples wait while its gate is closed: a
// read that blocks, opened by the test.
type gated struct {
	calls   atomic.Int64
	entered atomic.Int64 // samples begun
	mu      sync.Mutex
	gate    chan struct{} // nil: open
}

func (g *gated) Name() string { return "gated" }

func (g *gated) Source() cache.Source {
	return cache.Source{Name: "gated", Metrics: []cache.Desc{scriptedValue}}
}

func (g *gated) Sample(b *cache.Builder, _ time.Time) error {
	g.entered.Add(1)
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		<-gate
	}
	b.SetU64(scriptedValue.ID, cache.InstNone, uint64(g.calls.Add(1)))
	return nil
}

func (g *gated) close() {
	g.mu.Lock()
	g.gate = make(chan struct{})
	g.mu.Unlock()
}

// pass lets the sample waiting at the gate through and keeps the gate
// closed for the next.
func (g *gated) pass() {
	g.mu.Lock()
	close(g.gate)
	g.gate = make(chan struct{})
	g.mu.Unlock()
}

func (g *gated) open() {
	g.mu.Lock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
	}
	g.mu.Unlock()
}

// freshRunner runs c at an hour's interval, so that after its first
// sample only fetches have it sampled, with the given freshness bound
// and fetch deadline. It returns the runner, its front and c's source.
func freshRunner(t *testing.T, c Collector, within, wait time.Duration) (*Runner, *cache.Front, int) {
	t.Helper()
	r, front := attachedWith(t, zerolog.Nop(), Schedule{Default: time.Hour, FreshWithin: within, FetchWait: wait}, c)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	<-r.Ready()
	src, _ := front.Schema().SourceIndex(c.Name())
	return r, front, src
}

// ageNewest makes e's newest sample d older for the freshness bound, as
// if d had passed since it was taken: the tests need not sleep past the
// bound.
func ageNewest(e *entry, d time.Duration) {
	e.fresh.mu.Lock()
	e.fresh.at = e.fresh.at.Add(-d)
	e.fresh.mu.Unlock()
}

// published is the value of scriptedValue the front serves.
func published(t *testing.T, front *cache.Front) uint64 {
	t.Helper()
	snap := front.Load()
	d, _ := snap.Schema.Desc(scriptedValue.ID)
	v := snap.AppendValues(nil, d, time.Now())
	if len(v) != 1 {
		t.Fatalf("%d values published", len(v))
	}
	return v[0].Bits
}

func TestFreshenSamplesForAFetch(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, 20*time.Millisecond, time.Minute)
	if got := published(t, front); got != 1 {
		t.Fatalf("first sample published %d, want 1", got)
	}
	// A fetch past the bound of the newest sample has the source sampled,
	// and is answered from that sample.
	ageNewest(r.entries[0], 30*time.Millisecond)
	r.Freshen([]int{src}, time.Now())
	if got := published(t, front); got != 2 {
		t.Fatalf("after a stale fetch the front serves sample %d, want 2", got)
	}
	if n := controlValue(t, front, ctlFetchSamples); n != 1 {
		t.Errorf("fetch_samples %d, want 1", n)
	}
	if n := controlValue(t, front, ctlFreshSampled); n != 1 {
		t.Errorf("fresh.sampled %d, want 1", n)
	}
	if n := controlValue(t, front, ctlFreshMisses); n != 0 {
		t.Errorf("fresh.misses %d, want 0", n)
	}
	// The sample for a fetch is an extra one: no step's end in the peaks.
	if h := r.entries[0].hist(); !h.newest().extra {
		t.Error("the sample taken for a fetch is not marked extra in the history")
	}
}

func TestFreshenTakesNoSampleWithinTheBound(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, time.Minute, time.Minute)
	// Back to back fetches within the bound of the newest sample, however
	// many, sample nothing: the bound is how often fetches may sample.
	for range 100 {
		r.Freshen([]int{src}, time.Now())
	}
	if n := g.calls.Load(); n != 1 {
		t.Fatalf("%d samples, want the first only", n)
	}
	if n := controlValue(t, front, ctlFreshSampled); n != 0 {
		t.Errorf("fresh.sampled %d, want 0", n)
	}
}

func TestFreshenSharesOneSample(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, 20*time.Millisecond, time.Minute)
	g.close() // every fetch below arrives before the sample is done
	ageNewest(r.entries[0], 30*time.Millisecond)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Freshen([]int{src}, time.Now())
		}()
	}
	for controlValue(t, front, ctlFreshSampled) < 8 {
		time.Sleep(time.Millisecond) // until all eight wait
	}
	g.open()
	wg.Wait()
	if n := g.calls.Load(); n != 2 {
		t.Fatalf("%d samples for eight fetches together, want the first and one shared", n)
	}
	if got := published(t, front); got != 2 {
		t.Errorf("front serves sample %d, want 2", got)
	}
}

// A fetch that arrives while a sample is under way, later than the bound
// after that sample began, waits for the next: the one under way read
// /proc before the fetch was asked, and would list processes that had
// exited before it.
func TestFreshenWaitsForASampleBegunAfterItsArrival(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, 20*time.Millisecond, time.Minute)
	g.close()
	ageNewest(r.entries[0], 30*time.Millisecond)
	first := make(chan struct{})
	go func() {
		defer close(first)
		r.Freshen([]int{src}, time.Now())
	}()
	for g.entered.Load() < 2 {
		time.Sleep(time.Millisecond) // the first fetch's sample has begun
	}
	time.Sleep(30 * time.Millisecond)
	second := make(chan uint64, 1)
	go func() {
		r.Freshen([]int{src}, time.Now())
		second <- published(t, front) // what the fetch is answered from
	}()
	for controlValue(t, front, ctlFreshSampled) < 2 {
		time.Sleep(time.Millisecond) // the second fetch waits too
	}
	g.pass() // the first fetch's sample ends; the next waits at the gate
	<-first
	for g.entered.Load() < 3 {
		time.Sleep(time.Millisecond) // the second fetch's own sample has begun
	}
	// The next sample waits at the gate: nothing newer than sample 2 can
	// be published until it opens.
	select {
	case got := <-second:
		t.Fatalf("the second fetch was answered from sample %d, begun before it arrived", got)
	case <-time.After(50 * time.Millisecond):
	}
	g.open()
	if got := <-second; got != 3 {
		t.Fatalf("the second fetch was answered from sample %d, want 3, begun after it arrived", got)
	}
	if n := controlValue(t, front, ctlFreshMisses); n != 0 {
		t.Errorf("fresh.misses %d, want 0", n)
	}
}

func TestFreshenBlockedSourceCostsOneDeadline(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, 20*time.Millisecond, 50*time.Millisecond)
	g.close()
	defer g.open()
	ageNewest(r.entries[0], 30*time.Millisecond)
	start := time.Now()
	r.Freshen([]int{src}, start)
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Fatalf("a fetch of a blocked source returned after %v, before its deadline", waited)
	}
	if n := controlValue(t, front, ctlFreshMisses); n != 1 {
		t.Fatalf("fresh.misses %d, want 1", n)
	}
	if got := published(t, front); got != 1 {
		t.Fatalf("the front serves sample %d, want the cached 1", got)
	}
	// Later fetches do not wait for it: they are not counted as waiting.
	for range 5 {
		r.Freshen([]int{src}, time.Now())
	}
	if n := controlValue(t, front, ctlFreshSampled); n != 1 {
		t.Fatalf("fresh.sampled %d after the miss, want 1: later fetches waited for a blocked source", n)
	}
	if n := controlValue(t, front, ctlFetchMisses); n != 1 {
		t.Fatalf("collector.fetch_misses %d, want 1", n)
	}
	// Once the read returns, fetches wait for the source again.
	g.open()
	for r.entries[0].fresh.stuck.Load() {
		time.Sleep(time.Millisecond)
	}
	ageNewest(r.entries[0], 30*time.Millisecond)
	r.Freshen([]int{src}, time.Now())
	if got := published(t, front); got != 3 {
		t.Fatalf("after recovery the front serves sample %d, want 3", got)
	}
	if n := controlValue(t, front, ctlFreshMisses); n != 1 {
		t.Errorf("fresh.misses %d after recovery, want 1", n)
	}
}

func TestFreshenOffTakesNoSample(t *testing.T) {
	g := &gated{}
	r, front, src := freshRunner(t, g, 0, time.Minute)
	r.Freshen([]int{src}, time.Now().Add(time.Hour))
	if n := g.calls.Load(); n != 1 {
		t.Fatalf("%d samples with the bound off, want 1", n)
	}
	if n := controlValue(t, front, ctlFreshWithin); n != 0 {
		t.Errorf("fresh.within %d, want 0", n)
	}
}

func TestFreshenOfFreshSourcesAllocatesNothing(t *testing.T) {
	g := &gated{}
	r, _, src := freshRunner(t, g, time.Minute, time.Minute)
	sources := []int{src, 0} // 0 is the control source: no collector
	if n := testing.AllocsPerRun(100, func() { r.Freshen(sources, time.Now()) }); n != 0 {
		t.Fatalf("a fetch of fresh sources allocates %v times", n)
	}
}

// One or two slow samples of four (a busy host) leave the source waited
// for; three do not. A sample that read nothing says nothing of the pace.
func TestFreshTookIsTheLowerMedianOfRecentSamples(t *testing.T) {
	ff := newFetchFresh()
	now := time.Now()
	for k, c := range []struct {
		took, want time.Duration
	}{
		{10 * time.Millisecond, 10 * time.Millisecond},
		{300 * time.Millisecond, 10 * time.Millisecond},
		{10 * time.Millisecond, 10 * time.Millisecond},
		{300 * time.Millisecond, 10 * time.Millisecond},  // two slow of four
		{300 * time.Millisecond, 300 * time.Millisecond}, // three slow of four
	} {
		ff.sampled(now, c.took)
		if got := time.Duration(ff.took.Load()); got != c.want {
			t.Fatalf("sample %d: took %v, want %v", k, got, c.want)
		}
	}
	ff.sampled(time.Time{}, time.Microsecond)
	if got := time.Duration(ff.took.Load()); got != 300*time.Millisecond {
		t.Fatalf("took %v after a sample that read nothing, want 300ms", got)
	}
}
