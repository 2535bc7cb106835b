package engine

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
)

// DefaultHistory keeps 15 minutes of samples: enough for pmlogger's
// longest usual interval (10 minutes) with room to spare.
const DefaultHistory = 15 * time.Minute

// DefaultHistoryBudget bounds the memory of every source's history
// together: 15 minutes fit on a host of 64 CPUs and 256 disks (about 100
// MB); a larger host keeps a shorter history rather than more memory.
const DefaultHistoryBudget = 128 << 20

// memoryBudget is the memory all sources' histories share: each keeps
// history, unless the budget cannot hold them all, when the widest keep
// less.
type memoryBudget struct {
	log     zerolog.Logger
	idle    *idleBackoff  // how often each source samples now
	history time.Duration // how far back each source's history reaches
	bytes   int64         // bytes all histories may hold together
	span    atomic.Int64  // the history actually kept, in ms: history or less
	mu      sync.Mutex    // one re-share of the budget at a time
	// costSum is the histories' costs per second as last budgeted, and
	// shortened is set while some history is kept shorter than history
	// (both under mu).
	costSum   float64
	shortened bool
}

// budgetShare is one source's part in the budget: the history cost per
// second the budget was last shared with (under the budget's mu).
type budgetShare struct {
	cost float64
}

// init takes the budget's settings from sched; idle tells how often each
// source samples.
func (b *memoryBudget) init(sched Schedule, idle *idleBackoff, log zerolog.Logger) {
	b.log, b.idle = log, idle
	b.history = sched.History
	if b.history <= 0 {
		b.history = DefaultHistory
	}
	b.bytes = sched.HistoryBudget
	if b.bytes <= 0 {
		b.bytes = DefaultHistoryBudget
	}
	b.span.Store(b.history.Milliseconds())
}

// ringDepth is how many samples e's history has room for: the grid's over
// the history at e's interval, ringSlack times over for the samples taken
// between; 2 with no figures to compute (uptime): no history kept.
func (b *memoryBudget) ringDepth(e *entry, tracked int) int {
	if tracked == 0 {
		return 2
	}
	return (int(b.history/e.interval()) + 1) * ringSlack
}

// note records e's history cost after a sample, and shares the budget
// again when it moved by more than an eighth: most samples, repeated or
// alike, leave the budget as it was.
func (b *memoryBudget) note(entries []*entry, e *entry) {
	cost := e.hist().perSecond(b.idle.effectiveInterval(e))
	if math.Abs(cost-e.budget.cost) > e.budget.cost/8 {
		b.rebudget(entries, e, cost)
	}
}

// rebudget records e's new history cost and shares the memory budget
// again, unless every history fits in it whole, as it did before. Most
// hosts never come near the budget, yet their costs move most while the
// histories fill after start (the average over the samples held falls as
// repeats come in), which made a re-share every few samples for nothing.
// The sum is of the costs last budgeted, each within an eighth of its
// source's cost now (at most 9/8 of it): the whole histories fit if
// 9/8 of the sum does.
func (b *memoryBudget) rebudget(entries []*entry, e *entry, cost float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.hist().depth() > 2 {
		b.costSum += cost - e.budget.cost
	}
	e.budget.cost = cost
	if !b.shortened && b.costSum*9/8*b.history.Seconds() <= float64(b.bytes) {
		return
	}
	b.shortened = b.share(entries) < b.history
}

// share shares the memory budget among the histories, max-min
// fairly: each source keeps the configured span if its share of the
// budget holds it, and what a narrow source does not need goes to the
// wide ones. A source as wide as a large host's per-CPU interrupt counts
// then gets a shorter history, while the one-second CPU, disk and network
// sources keep theirs. Samples past a shorter span are dropped as new
// ones come. It returns the shortest span given.
func (b *memoryBudget) share(entries []*entry) time.Duration {
	var live []*entry
	var costs []float64 // bytes a second of each live source's history
	for _, e := range entries {
		if e.hist() != nil && e.hist().depth() > 2 {
			live = append(live, e)
			costs = append(costs, e.hist().perSecond(b.idle.effectiveInterval(e)))
		}
	}
	spans := FairSpans(costs, float64(b.bytes), b.history)
	shortest := b.history
	for i, e := range live {
		shortest = min(shortest, spans[i])
		// A whole span is kept by time (history.reach); a shorter one by
		// the count of samples its share of the budget holds.
		keep := int64(e.hist().depth())
		if spans[i] < b.history {
			rate := e.hist().samplesPerSecond(b.idle.effectiveInterval(e))
			keep = min(keep, max(2, int64(spans[i].Seconds()*rate)+1))
		}
		e.hist().keep.Store(keep)
	}
	if old := b.span.Swap(shortest.Milliseconds()); old/1000 != shortest.Milliseconds()/1000 &&
		shortest < b.history {
		b.log.Debug().Dur("shortest_history", shortest).Int64("budget", b.bytes).
			Msg("history shortened to fit its memory budget")
	}
	return shortest
}

// FairSpans gives each source (costs in bytes per second of history) the
// span it may keep within budget bytes, at most history: the sources
// that need least are served first and in full, each of the others gets
// an equal share of what remains.
func FairSpans(costs []float64, budget float64, history time.Duration) []time.Duration {
	spans := make([]time.Duration, len(costs))
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(costs[a], costs[b]) })
	left := budget
	for k, i := range order {
		need := costs[i] * history.Seconds()
		share := left / float64(len(order)-k)
		if costs[i] <= 0 || need <= share {
			spans[i] = history
			left -= need
			continue
		}
		spans[i] = time.Duration(share / costs[i] * float64(time.Second))
		left -= share
	}
	return spans
}
