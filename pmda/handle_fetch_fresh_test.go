package pmda

import (
	"slices"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// publishingFreshener stands in for the engine: at each Freshen it
// records the sources asked for and publishes a new sample of source 0,
// whose u32 counts the calls.
type publishingFreshener struct {
	t     *testing.T
	front *cache.Front
	calls [][]int
}

func (f *publishingFreshener) Freshen(sources []int, now time.Time) {
	f.calls = append(f.calls, slices.Clone(sources))
	schema := f.front.Schema()
	b := schema.NewBuilder(0, now)
	b.SetU64(tU32.ID, cache.InstNone, uint64(100+len(f.calls)))
	part, err := b.Part()
	if err != nil {
		f.t.Error(err)
		return
	}
	f.front.Publish(0, part)
}

// TestFetchFreshensItsSourcesFirst: a fetch asks for fresh samples of
// the sources of its metrics, each once whatever the number of its
// metrics, and is answered from what that published.
func TestFetchFreshensItsSourcesFirst(t *testing.T) {
	fresh := &publishingFreshener{t: t}
	p := startServerWith(t, func(cfg *Config) {
		fresh.front = cfg.Front
		cfg.Front.SetFreshener(fresh)
	})
	p.send(capture(t, "profile_default"))
	req := (&Fetch{PMIDs: []uint32{wirePMID(tCount), wirePMID(tU32), testDomain<<22 | 999, wirePMID(tU32)}}).Append(nil)
	for want := uint32(101); want <= 102; want++ {
		_, reply := p.roundTrip(req)
		var res Result
		if err := res.Decode(reply); err != nil {
			t.Fatal(err)
		}
		if got := res.Sets[1].Values[0].Word; got != want {
			t.Errorf("fetch answered u32 %d, want %d from the sample its Freshen published", got, want)
		}
	}
	if len(fresh.calls) != 2 || !slices.Equal(fresh.calls[0], []int{0}) || !slices.Equal(fresh.calls[1], []int{0}) {
		t.Errorf("Freshen calls %v, want source 0 once a fetch", fresh.calls)
	}
	// An unknown metric alone asks for nothing.
	p.roundTrip((&Fetch{PMIDs: []uint32{testDomain<<22 | 999}}).Append(nil))
	if len(fresh.calls) != 2 {
		t.Errorf("a fetch of no known metric called Freshen: %v", fresh.calls)
	}
}
