package engine

import (
	"testing"
	"time"
)

// The age a fetch was served is that of the newest sample published
// before it; the delay is the longest from a plan to its publication.
func TestPublishLogServedAge(t *testing.T) {
	var pl publishLog
	for k := 0; k < 3; k++ {
		planned := t0.Add(time.Duration(k) * time.Second)
		pl.add(planned, planned.Add(ms(1)), planned.Add(ms(3+k)))
	}
	if _, ok := pl.servedAt(t0); ok {
		t.Error("a fetch before any publication was served")
	}
	age, ok := pl.servedAt(t0.Add(ms(1003)))
	if !ok || age != ms(1002) {
		t.Errorf("served %v old (%v), want 1.002s: the second sample is not published yet", age, ok)
	}
	if age, _ := pl.servedAt(t0.Add(ms(1010))); age != ms(9) {
		t.Errorf("served %v old, want 9ms", age)
	}
	if d := pl.delay(); d != ms(5) {
		t.Errorf("delay %v, want 5ms", d)
	}
}
