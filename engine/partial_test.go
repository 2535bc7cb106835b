package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// partialSource publishes one value and reports that another source failed.
type partialSource struct{ scripted }

func (p *partialSource) Sample(b *cache.Builder, _ time.Time) error {
	b.SetU64(scriptedValue.ID, cache.InstNone, 42)
	return Partial(errors.New("one file missing"))
}

// A partial failure publishes what the collector set and still counts.
func TestPartialSampleIsPublishedAndCounted(t *testing.T) {
	r, st := newTestRunner(t, &partialSource{scripted{name: "p"}}, time.Second)
	if err := r.SampleAt(time.Now()); err == nil {
		t.Error("the partial failure was not reported")
	}
	d, _ := st.Schema().Desc(scriptedValue.ID)
	if v := st.Load().AppendValues(nil, d, time.Now()); len(v) != 1 || v[0].Bits != 42 {
		t.Errorf("published %v, want 42", v)
	}
	r.SampleAll()
	if n := controlValue(t, st, ctlErrors); n != 1 {
		t.Errorf("errors = %d after one partial sample by the loop, want 1", n)
	}
}

// PartialOf: nothing failed is nil, some is a PartialError (what was read
// is published), all is a plain error.
func TestPartialOf(t *testing.T) {
	bad := errors.New("gone")
	if err := PartialOf(nil, 3); err != nil {
		t.Errorf("no failure: %v", err)
	}
	var p *PartialError
	if err := PartialOf([]error{bad}, 3); !errors.As(err, &p) {
		t.Errorf("one of three: %v is not partial", err)
	}
	if err := PartialOf([]error{bad, bad}, 2); err == nil || errors.As(err, &p) {
		t.Errorf("all failed: %v", err)
	}
}
