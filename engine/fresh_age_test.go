package engine

import (
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestServedAges(t *testing.T) {
	var a fetchDurations
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

// The front passes each fetch's answer time to the runner, whose
// fetch.answer and fetch.answers show it.
func TestFetchAnswerTimes(t *testing.T) {
	_, front, _ := freshRunner(t, &gated{}, 20*time.Millisecond, time.Minute)
	values := func(d cache.Desc) []cache.Value {
		snap := front.Load()
		desc, _ := snap.Schema.Desc(d.ID)
		return snap.AppendValues(nil, desc, time.Now())
	}
	if v := values(ctlFetchAnswer); len(v) != 0 {
		t.Fatalf("fetch.answer before any fetch: %v", v)
	}
	front.Answered(3 * time.Millisecond)
	front.Answered(150 * time.Millisecond)
	p := values(ctlFetchAnswer)
	if len(p) != len(agePercentiles) || p[0].Bits != 150000 || p[3].Bits != 150000 {
		t.Errorf("fetch.answer %v, want p50 and max 150000 us", p)
	}
	b := values(ctlFetchAnswers)
	if len(b) != len(ageBucketNames) || b[2].Bits != 1 || b[7].Bits != 1 {
		t.Errorf("fetch.answers %v, want one in 2-5ms and one in 100-200ms", b)
	}
	var n uint64
	for _, v := range b {
		n += v.Bits
	}
	if n != 2 {
		t.Errorf("fetch.answers count %d fetches, want 2", n)
	}
	if total := values(ctlFetchAnswerTime); len(total) != 1 || total[0].Bits != 153000 {
		t.Errorf("fetch.answer_time %v, want 153000 us", total)
	}
	if ages := values(ctlFreshAges); len(ages) > 0 && ages[2].Bits+ages[7].Bits > 0 {
		t.Errorf("answer times counted as ages: %v", ages)
	}
}
