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
	t        *testing.T
	front    *cache.Front
	calls    [][]int
	answered []time.Duration
}

func (f *publishingFreshener) Answered(took time.Duration) { f.answered = append(f.answered, took) }

func (f *publishingFreshener) Freshen(sources []int, now time.Time) *cache.Present {
	f.calls = append(f.calls, slices.Clone(sources))
	schema := f.front.Schema()
	b := schema.NewBuilder(0, now)
	b.SetU64(tU32.ID, cache.InstNone, uint64(100+len(f.calls)))
	part, err := b.Part()
	if err != nil {
		f.t.Error(err)
		return nil
	}
	f.front.Publish(0, part)
	return nil
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
	// Every fetch, that one too, tells how long it took to answer.
	if len(fresh.answered) != 3 {
		t.Errorf("%d answer times for 3 fetches", len(fresh.answered))
	}
}

// lateFreshener stands in for the engine when a source's sample is late:
// it publishes nothing and says that of domain 2 only 1 and 15 exist now.
type lateFreshener struct{}

func (lateFreshener) Answered(time.Duration) {}

func (lateFreshener) Freshen(sources []int, now time.Time) *cache.Present {
	var p cache.Present
	p.Set(2, []uint32{1, 15})
	return &p
}

// TestLateFetchLeavesOutTheGone: an instance the late source no longer
// lists has no value in a fetch and no entry in an instance request.
func TestLateFetchLeavesOutTheGone(t *testing.T) {
	p := startServerWith(t, func(cfg *Config) { cfg.Front.SetFreshener(lateFreshener{}) })
	p.send(capture(t, "profile_default"))
	_, reply := p.roundTrip((&Fetch{PMIDs: []uint32{wirePMID(tCount), wirePMID(tU32)}}).Append(nil))
	var res Result
	if err := res.Decode(reply); err != nil {
		t.Fatal(err)
	}
	var insts []uint32
	for _, v := range res.Sets[0].Values {
		insts = append(insts, v.Inst)
	}
	if slices.Sort(insts); !slices.Equal(insts, []uint32{1, 15}) || len(res.Sets[1].Values) != 1 {
		t.Errorf("t.count on instances %v, want 1 and 15; t.u32 %d values, want 1", insts, len(res.Sets[1].Values))
	}
	_, reply = p.roundTrip((&InstanceReq{InDom: wireLoadInDom, Inst: InstNull}).Append(nil))
	if _, all, err := DecodeInstance(reply); err != nil || len(all) != 2 || all[0].Inst != 1 || all[1].Inst != 15 {
		t.Errorf("all instances %v %v, want 1 and 15", all, err)
	}
	p.expectError((&InstanceReq{InDom: wireLoadInDom, Inst: 5}).Append(nil), ErrInst)
	p.expectError((&InstanceReq{InDom: wireLoadInDom, Inst: InstNull, Name: "5 minute"}).Append(nil), ErrInst)
}
