package main

import (
	"encoding/binary"
	"testing"
	"time"
)

// The readers fetch in the order of their phases past the second, each
// once a second, and each FETCH carries its reader's own client number.
func TestReaderLoopNext(t *testing.T) {
	ms := time.Millisecond
	l := newReaderLoop([]uint32{1}, []time.Duration{100 * ms, 350 * ms, 600 * ms, 850 * ms})
	sec := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		now  time.Duration
		want time.Duration
		who  int
	}{
		{0, 100 * ms, 0},
		{100 * ms, 350 * ms, 1}, // a fetch at its phase is not due again
		{400 * ms, 600 * ms, 2},
		{849 * ms, 850 * ms, 3},
		{900 * ms, 1100 * ms, 0},
	} {
		at, who := l.next(sec.Add(c.now))
		if who != c.who || !at.Equal(sec.Add(c.want)) {
			t.Errorf("after %v: reader %d at %v, want %d at %v", c.now, who, at.Sub(sec), c.who, c.want)
		}
	}
	froms := map[uint32]bool{}
	for _, pdu := range l.fetches {
		froms[binary.BigEndian.Uint32(pdu[8:])] = true
	}
	if len(froms) != 4 {
		t.Errorf("client numbers of the four readers: %v", froms)
	}
	if _, who := newReaderLoop([]uint32{1}, nil).next(sec); who != -1 {
		t.Errorf("no reader: next is reader %d", who)
	}
}
