package engine

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// ageBounds are the upper bounds of the buckets of
// hostcache.control.fresh.ages and fetch.answers, with one more bucket
// past the last.
var ageBounds = [...]time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond,
	500 * time.Millisecond, time.Second,
}

// ageBucketNames name the buckets, the one past the last bound included.
var ageBucketNames = [...]string{
	"0-1ms", "1-2ms", "2-5ms", "5-10ms", "10-20ms", "20-50ms", "50-100ms", "100-200ms",
	"200-500ms", "500-1000ms", "1000ms-",
}

// agesKept is how many fetches the percentiles of
// hostcache.control.fresh.age and fetch.answer are over.
const agesKept = 1024

// agePercentiles name the instances of hostcache.control.fresh.age and
// fetch.answer.
var agePercentiles = [...]struct {
	name string
	per  int // per mille; 1000 is the largest
}{{"p50", 500}, {"p90", 900}, {"p99", 990}, {"max", 1000}}

// fetchDurations records one duration a fetch (the age of the oldest
// sample it was answered from, or the time it took to answer): a
// histogram since start, and the last agesKept for percentiles.
type fetchDurations struct {
	buckets [len(ageBounds) + 1]atomic.Uint64
	totalUS atomic.Uint64 // every duration added, in microseconds
	mu      sync.Mutex
	recent  [agesKept]int64 // microseconds, a ring
	n       int
	scratch [agesKept]int64 // sorted copy, for reads
}

// add records one fetch's duration.
func (a *fetchDurations) add(age time.Duration) {
	age = max(age, 0)
	i := 0
	for i < len(ageBounds) && age > ageBounds[i] {
		i++
	}
	a.buckets[i].Add(1)
	a.totalUS.Add(uint64(age.Microseconds()))
	a.mu.Lock()
	a.recent[a.n%agesKept] = age.Microseconds()
	a.n++
	a.mu.Unlock()
}

// percentiles calls f with each percentile's index and value (in
// microseconds) over the recent fetches; none before the first fetch.
func (a *fetchDurations) percentiles(f func(i int, us int64)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := min(a.n, agesKept)
	if n == 0 {
		return
	}
	s := a.scratch[:n]
	copy(s, a.recent[:n])
	slices.Sort(s)
	for i, p := range agePercentiles {
		f(i, s[min(n-1, (n*p.per)/1000)])
	}
}

// appendBuckets appends the histogram's counts, one value a bucket.
func (a *fetchDurations) appendBuckets(_ *cache.Request, dst []cache.Value) []cache.Value {
	for i := range a.buckets {
		dst = append(dst, cache.U64Value(uint32(i), a.buckets[i].Load()))
	}
	return dst
}

// appendTotal appends the sum of the durations, in microseconds.
func (a *fetchDurations) appendTotal(_ *cache.Request, dst []cache.Value) []cache.Value {
	return append(dst, cache.U64Value(cache.InstNone, a.totalUS.Load()))
}

// appendPercentiles appends the percentiles, in microseconds.
func (a *fetchDurations) appendPercentiles(_ *cache.Request, dst []cache.Value) []cache.Value {
	a.percentiles(func(i int, us int64) {
		dst = append(dst, cache.U64Value(uint32(i), uint64(us)))
	})
	return dst
}

// noteServed records the age of the oldest sample of sources a fetch is
// answered from now.
func (fr *freshness) noteServed(sources []int) {
	var oldest time.Time
	for _, src := range sources {
		if e := fr.entryOf(src); e != nil {
			if at := e.fresh.newest(); !at.IsZero() && (oldest.IsZero() || at.Before(oldest)) {
				oldest = at
			}
		}
	}
	if !oldest.IsZero() {
		fr.ages.add(time.Since(oldest))
	}
}
