package main

import "testing"

// The configured limit holds while the live heap fits it with room; past
// that, the limit follows the heap, so the collector never runs flat out.
func TestMemoryLimitFollowsALargerHeap(t *testing.T) {
	for _, c := range []struct{ configured, live, want int64 }{
		{96 << 20, 20 << 20, 96 << 20},
		{96 << 20, 78 << 20, 96 << 20},
		{96 << 20, 100 << 20, 120 << 20},
		{96 << 20, 0, 96 << 20},
	} {
		if got := memoryLimit(c.configured, c.live); got != c.want {
			t.Errorf("configured %d MB, live %d MB: limit %d MB, want %d MB", c.configured>>20, c.live>>20,
				got>>20, c.want>>20)
		}
	}
}
