package engine

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// A fetch right after an OnDemand collector's slowed sample (which read
// nothing) has it sampled at once, at full pace, though that sample is
// well within the freshness bound: a slowed sample is no fresh one. The
// threads view relies on it: a client that just asked for threads lists
// them at its next request.
func TestFreshenWakesAnOnDemandSource(t *testing.T) {
	p := &onDemandScript{pacedScript{scripted: scripted{name: "ondemand"}}}
	r, front := attachedWith(t, zerolog.Nop(), Schedule{Default: time.Hour, FreshWithin: time.Minute,
		FetchWait: time.Minute, IdleAfter: time.Minute, IdleFactor: 10}, p)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	<-r.Ready()
	src, _ := front.Schema().SourceIndex(p.Name())
	front.Freshen([]int{src}, time.Now())
	// Freshen returned once the sample it waited for was published.
	if n := p.calls.Load(); n != 2 {
		t.Fatalf("%d samples after the fetch, want the slowed first and the fetch's", n)
	}
	if !slices.Equal(p.paces, []int{10, 1}) || p.at[1] != 1 {
		t.Errorf("paces %v before samples %v; want [10 1], full pace before the fetch's sample", p.paces, p.at)
	}
	// A second fetch within the bound of that full sample takes none.
	front.Freshen([]int{src}, time.Now())
	if n := p.calls.Load(); n != 2 {
		t.Errorf("%d samples after a second fetch within the bound, want 2", n)
	}
}
