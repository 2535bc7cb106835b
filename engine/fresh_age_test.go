package engine

import (
	"testing"
	"time"
)

func TestServedAges(t *testing.T) {
	var a servedAges
	got := map[int]int64{}
	a.percentiles(func(i int, us int64) { got[i] = us })
	if len(got) != 0 {
		t.Fatalf("percentiles before any fetch: %v", got)
	}
	for i := 1; i <= 100; i++ {
		a.add(time.Duration(i) * time.Millisecond)
	}
	a.percentiles(func(i int, us int64) { got[i] = us })
	want := map[int]int64{0: 51000, 1: 91000, 2: 100000, 3: 100000}
	for i, us := range want {
		if got[i] != us {
			t.Errorf("%s = %d us, want %d", agePercentiles[i].name, got[i], us)
		}
	}
	// 1 ms is in 0-1ms; 100 ms in 50-100ms; 51..100 ms are 50 ages.
	if n := a.buckets[0].Load(); n != 1 {
		t.Errorf("0-1ms holds %d, want 1", n)
	}
	if n := a.buckets[6].Load(); n != 50 {
		t.Errorf("50-100ms holds %d, want 50", n)
	}
}
