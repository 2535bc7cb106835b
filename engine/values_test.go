package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// sleepers is a process table in small: counters per instance that stay
// as they were, but for one busy instance's; the last instance may go.
type sleepers struct {
	descs       []cache.Desc
	insts, busy int
	k           uint64
	dropLast    bool
}

func newSleepers(counters, insts int) *sleepers {
	s := &sleepers{insts: insts, busy: 5}
	for i := range counters {
		s.descs = append(s.descs, Metric(fmt.Sprintf("hostcache.sleep.c%d", i), 21, uint32(i), cache.TypeU64,
			cache.SemCounter, cache.UnitsCount, 21))
	}
	return s
}

func (s *sleepers) Name() string { return "sleepers" }
func (s *sleepers) Source() cache.Source {
	return cache.Source{Name: "sleepers", Metrics: s.descs, InDoms: []cache.InDomDesc{{ID: 21, Name: "sleepers"}}}
}
func (s *sleepers) Sample(b *cache.Builder, _ time.Time) error {
	s.k++
	for _, inst := range s.list() {
		for i, d := range s.descs {
			b.SetU64(d.ID, uint32(inst), s.value(i, inst))
		}
	}
	return nil
}

func (s *sleepers) list() []int {
	var out []int
	for inst := range s.insts {
		if !(s.dropLast && inst == s.insts-1) {
			out = append(out, inst)
		}
	}
	return out
}

func (s *sleepers) value(metric, inst int) uint64 {
	v := uint64(1000*metric + inst)
	if inst == s.busy {
		v += s.k
	}
	return v
}

// A large sample holds its values in chunks, and a chunk whose instances
// and values are the previous sample's is that sample's: a history of
// sleeping processes holds their counters once. Every value reads back as
// set, and the memory is counted once, whichever sample holds it, as the
// ring drops the older ones.
func TestStillChunksAreShared(t *testing.T) {
	src := newSleepers(20, 300) // 20 metrics of 5 chunks each
	r, _ := attachedWith(t, zerolog.Nop(), Schedule{Default: time.Second, History: 5 * time.Second}, src)
	h := r.entries[0].hist()
	now := t0
	sample := func() *sample {
		t.Helper()
		now = now.Add(time.Second)
		if err := r.SampleAt(now); err != nil {
			t.Fatal(err)
		}
		s := h.newest()
		checkValues(t, src, h, s)
		checkBytes(t, h)
		return s
	}
	first := sample()
	if first.vals.chunks == nil || len(first.vals.chunks) != 100 || first.own.count() != 100 {
		t.Fatalf("the first sample: %d chunks, %d its own; want 100 of its own", len(first.vals.chunks), first.own.count())
	}
	second := sample()
	if n := second.own.count(); n != 20 {
		t.Errorf("the second sample made %d chunks, want the busy instance's 20", n)
	}
	src.dropLast = true // a new layout: the chunks of the last instances change
	third := sample()
	if n := third.own.count(); n != 40 {
		t.Errorf("with an instance gone the sample made %d chunks, want 40 (the busy one's, the last ones)", n)
	}
	for range 3 * h.depth() {
		sample()
	}
}

// checkValues reads every value of s back through its layout.
func checkValues(t *testing.T, src *sleepers, h *history, s *sample) {
	t.Helper()
	for m := range src.descs {
		for j, inst := range src.list() {
			p, ok := s.layout.find(m, uint32(inst), j)
			if !ok {
				t.Fatalf("sample %d: metric %d has no instance %d", s.seq, m, inst)
			}
			if got, want := s.vals.at(p), src.value(m, inst); got != want {
				t.Fatalf("sample %d: metric %d instance %d is %d, want %d", s.seq, m, inst, got, want)
			}
		}
	}
}

// checkBytes holds the history's count of memory to what its samples
// hold, each chunk once.
func checkBytes(t *testing.T, h *history) {
	t.Helper()
	var want int64
	for seq := h.next.Load() - uint64(h.held()); seq < h.next.Load(); seq++ {
		if s := h.at(seq); s != nil {
			want += sampleBytes(s)
		}
	}
	if got := h.bytes.Load(); got != want {
		t.Fatalf("%d bytes counted for %d samples, want %d", got, h.held(), want)
	}
}
