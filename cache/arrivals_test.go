package cache

import (
	"sync"
	"testing"
	"time"
)

type arrival struct {
	client int32
	at     time.Time
}

func drain(s *Schema, source int, after uint64) ([]arrival, uint64) {
	var got []arrival
	next := s.Arrivals(source, after, func(c int32, at time.Time) { got = append(got, arrival{c, at}) })
	return got, next
}

// A fetch of many metrics of a source is one arrival; another client's
// fetch at the same instant, or the same client's later one, is another.
// NoClient's reads are no arrival.
func TestArrivalsOnePerFetch(t *testing.T) {
	s := testSchema(t)
	snap := NewFront(s).Load()
	t0 := time.Unix(1000, 0)
	for _, q := range []Request{
		{Snap: snap, Now: t0, Client: 3}, {Snap: snap, Now: t0, Client: 3}, {Snap: snap, Now: t0, Client: 4},
		{Snap: snap, Now: t0.Add(time.Second), Client: 3}, {Snap: snap, Now: t0, Client: NoClient},
	} {
		q.AppendValues(nil, &dA)
		q.AppendValues(nil, &dB)
	}
	got, next := drain(s, 0, 0)
	want := []arrival{{3, t0}, {4, t0}, {3, t0.Add(time.Second)}}
	if len(got) != len(want) || next != 3 {
		t.Fatalf("arrivals %v (next %d), want %v", got, next, want)
	}
	for i := range want {
		if got[i].client != want[i].client || !got[i].at.Equal(want[i].at) {
			t.Errorf("arrival %d = %v, want %v", i, got[i], want[i])
		}
	}
	if more, _ := drain(s, 0, next); len(more) != 0 {
		t.Errorf("drained again: %v", more)
	}
	if other, _ := drain(s, 1, 0); len(other) != 0 {
		t.Errorf("source two got arrivals %v", other)
	}
}

// Past the ring's size the oldest arrivals are lost, the newest kept.
func TestArrivalsOverrunKeepsNewest(t *testing.T) {
	s := testSchema(t)
	t0 := time.Unix(1000, 0)
	n := arrivalSlots + 10
	for i := 0; i < n; i++ {
		s.noteRead(0, 1, t0.Add(time.Duration(i)*time.Millisecond))
	}
	got, next := drain(s, 0, 0)
	if len(got) != arrivalSlots || next != uint64(n) {
		t.Fatalf("%d arrivals (next %d), want %d (next %d)", len(got), next, arrivalSlots, n)
	}
	if first := got[0].at.Sub(t0); first != 10*time.Millisecond {
		t.Errorf("oldest kept at +%v, want +10ms", first)
	}
}

// A writer and a reader at once: every arrival read is one that was
// written whole (its client matches its time), in order, none twice.
func TestArrivalsConcurrentNeverTorn(t *testing.T) {
	s := testSchema(t)
	t0 := time.Unix(1000, 0)
	const n = 20000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i <= n; i++ {
			s.noteRead(0, int32(i), t0.Add(time.Duration(i)))
		}
	}()
	var after uint64
	last, read := int32(0), 0
	check := func(c int32, at time.Time) {
		if at.Sub(t0) != time.Duration(c) {
			t.Fatalf("torn arrival: client %d at +%v", c, at.Sub(t0))
		}
		if c <= last {
			t.Fatalf("client %d read after %d", c, last)
		}
		last = c
		read++
	}
	for after < n {
		after = s.Arrivals(0, after, check)
	}
	wg.Wait()
	if read == 0 || last != n {
		t.Errorf("read %d arrivals, the last of client %d; want the last of %d", read, last, n)
	}
}
