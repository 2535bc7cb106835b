package pmda

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// repeatReader yields the same PDUs forever, as a busy pmcd would.
type repeatReader struct {
	data []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.data[r.off:])
	r.off = (r.off + n) % len(r.data)
	return n, nil
}

// benchStore publishes a host-sized cache: nMetrics singular U64 counters,
// nMetrics per-instance U64 metrics over nInst instances, and a few
// doubles and floats.
func benchStore(tb testing.TB, nMetrics, nInst int) (*cache.Front, []uint32) {
	tb.Helper()
	var descs []cache.Desc
	for i := 0; i < nMetrics; i++ {
		descs = append(descs,
			cache.Desc{Name: fmt.Sprintf("b.s%d", i), ID: cache.NewMetricID(1, uint32(i)), Type: cache.TypeU64, Sem: cache.SemCounter, InDom: cache.InDomNone},
			cache.Desc{Name: fmt.Sprintf("b.i%d", i), ID: cache.NewMetricID(2, uint32(i)), Type: cache.TypeU64, Sem: cache.SemCounter, InDom: 1},
			cache.Desc{Name: fmt.Sprintf("b.d%d", i), ID: cache.NewMetricID(3, uint32(i)), Type: cache.TypeDouble, Sem: cache.SemInstant, InDom: cache.InDomNone},
			cache.Desc{Name: fmt.Sprintf("b.u%d", i), ID: cache.NewMetricID(4, uint32(i)), Type: cache.TypeU32, Sem: cache.SemInstant, InDom: 1},
		)
	}
	schema, err := cache.NewSchema(cache.Source{Name: "bench", Metrics: descs, InDoms: []cache.InDomDesc{{ID: 1, Name: "i"}}})
	if err != nil {
		tb.Fatal(err)
	}
	st := cache.NewFront(schema)
	b := schema.NewBuilder(0, time.Now())
	insts := make([]cache.Instance, nInst)
	for j := range insts {
		insts[j] = cache.Instance{ID: uint32(j), Name: fmt.Sprintf("i%d", j)}
	}
	b.SetInDom(1, cache.NewInstances(insts))
	var pmids []uint32
	for _, d := range descs {
		pmids = append(pmids, testDomain<<22|uint32(d.ID))
		switch {
		case d.Type == cache.TypeDouble:
			b.SetDouble(d.ID, cache.InstNone, 1.5)
		case d.InDom == cache.InDomNone:
			b.SetU64(d.ID, cache.InstNone, 42)
		default:
			for j := 0; j < nInst; j++ {
				b.SetU64(d.ID, uint32(j), uint64(j))
			}
		}
	}
	part, err := b.Part()
	if err != nil {
		tb.Fatal(err)
	}
	st.Publish(0, part)
	return st, pmids
}

// fetchServer is a server whose input repeats one PROFILE + FETCH pair.
func fetchServer(tb testing.TB, nMetrics, nInst int) *Server {
	st, pmids := benchStore(tb, nMetrics, nInst)
	in := (&Profile{}).Append(nil)
	in = (&Fetch{PMIDs: pmids}).Append(in)
	return NewServer(Config{Name: "bench", Domain: testDomain, Front: st, Log: zerolog.Nop()},
		&repeatReader{data: in}, io.Discard)
}

// TestFetchAllocatesNothing: the design point of the fetch path. Once the
// buffers have grown, decoding a FETCH (with the PROFILE pmcd sends ahead
// of it) and encoding the RESULT from a snapshot allocate nothing.
func TestFetchAllocatesNothing(t *testing.T) {
	s := fetchServer(t, 25, 16)
	for i := 0; i < 4; i++ { // warm up: grow buffers
		if err := s.serveOne(); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if err := s.serveOne(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per PDU, want 0", allocs)
	}
}

// A fetch too large to keep its buffers for (a process table's) lets its
// snapshot go once answered, so that a part replaced since is freed
// before the next fetch; its buffers go once no request has come for
// shedAfter, and the next fetch gets room for the last one's size.
func TestLargeFetchLetsItsBuffersGo(t *testing.T) {
	s := fetchServer(t, 10, 5000) // 100,000 values: 3.2 MB of scratch
	s.shedAfter = 50 * time.Millisecond
	serve := func() {
		for range 2 { // PROFILE, FETCH
			if err := s.serveOne(); err != nil {
				t.Fatal(err)
			}
		}
	}
	serve()
	held := func() (int, int, bool) {
		s.bufMu.Lock()
		defer s.bufMu.Unlock()
		return cap(s.out), cap(s.fetch.values), s.fetch.read.Snap != nil
	}
	out, values, snap := held()
	if out <= keptBuffer || values <= keptValues || snap {
		t.Fatalf("right after the fetch: %d reply bytes, %d values kept, snapshot %v", out, values, snap)
	}
	deadline := time.Now().Add(5 * time.Second)
	for out, values, _ = held(); (out != 0 || values != 0) && time.Now().Before(deadline); out, values, _ = held() {
		time.Sleep(10 * time.Millisecond)
	}
	if out != 0 || values != 0 {
		t.Fatalf("%d reply bytes and %d values kept after %v without a request", out, values, s.shedAfter)
	}
	for _, set := range s.fetch.sets[:cap(s.fetch.sets)] {
		if set.Values != nil {
			t.Fatal("a value set still points into the fetch's values")
		}
	}
	serve()
	if out, values, _ = held(); out < s.outHint || values < s.fetch.valuesHint {
		t.Errorf("the next fetch grew its buffers to %d bytes and %d values, not the last one's %d and %d at once",
			out, values, s.outHint, s.fetch.valuesHint)
	}
}

// Fetches that come again within shedAfter keep their buffers, however
// large: a large fetch again and again allocates nothing.
func TestLargeFetchesAgainAllocateNothing(t *testing.T) {
	s := fetchServer(t, 10, 5000)
	for range 4 {
		if err := s.serveOne(); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(10, func() {
		if err := s.serveOne(); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("%.1f allocations per PDU, want 0", allocs)
	}
}

// BenchmarkFetch measures decode FETCH -> encode RESULT from a snapshot
// for a CPU+memory+load-sized request (~100 metrics, 16 instances).
func BenchmarkFetch(b *testing.B) {
	for _, size := range []struct{ metrics, insts int }{{25, 16}, {25, 256}, {100, 1024}} {
		b.Run(fmt.Sprintf("metrics=%d/insts=%d", 4*size.metrics, size.insts), func(b *testing.B) {
			s := fetchServer(b, size.metrics, size.insts)
			b.ReportAllocs()
			for b.Loop() {
				s.serveOne() // PROFILE
				s.serveOne() // FETCH
			}
		})
	}
}
