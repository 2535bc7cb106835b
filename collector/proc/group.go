package proc

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// A group is a set of per-process metrics whose files cost more than the
// process collector's (smaps_rollup walks every mapping; maps and environ
// are long texts; fd is a directory) or that few clients read. Each is a
// collector of its own, so that its cost follows its readers: the engine
// slows a source no client reads (idle_after), and a group collector
// then reads nothing at all until a client reads one of its metrics
// again. Its metrics are in the process instance domain, whose members
// the process collector lists; the group reads the processes of that
// collector's last sample.
type group interface {
	// metrics are the group's metrics.
	metrics() []cache.Desc
	// sample reads the group's files of each process (pids, sorted) and
	// sets their values; a file missing, odd or refused leaves that
	// process's value out.
	sample(rd *reader, pids []int32, b *cache.Builder)
}

// groupCollector samples one group.
type groupCollector struct {
	name  string
	g     group
	board *board
	rd    reader
	pids  []int32
	// pace is the engine's factor: above 1 while no client reads the
	// source, and the collector then reads nothing.
	pace int
	// inert is set when the process collector is disabled: the group has
	// no instance domain to publish into, and publishes nothing.
	inert bool
	// hotDescs are the hot twins of the group's metrics, which it sets
	// for the hot processes (hotproc.go); hotIDs maps to them.
	hotDescs []cache.Desc
	hotIDs   map[cache.MetricID]cache.MetricID
	noHot    map[uint32]bool // empty: the hot set while hotproc is off
}

// groupFactory makes a group's collector, sharing b with the process
// collector made by the same Registry call.
func groupFactory(name string, newGroup func() group, b *board) engine.Factory {
	return func(env engine.Env) (engine.Collector, error) {
		if st, err := os.Stat(env.Proc); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s: the /proc root %q is not a directory", name, env.Proc)
		}
		g := newGroup()
		hotDescs, hotIDs := hotTwinsOf(g.metrics())
		return &groupCollector{name: name, g: g, board: b, rd: reader{root: env.Proc}, pace: 1,
			inert: !b.hasLister(), hotDescs: hotDescs, hotIDs: hotIDs, noHot: map[uint32]bool{}}, nil
	}
}

func (c *groupCollector) Name() string { return c.name }

// Source lists the group's metrics; they are in the process domain,
// which the process collector owns.
func (c *groupCollector) Source() cache.Source {
	if c.inert {
		return cache.Source{Name: c.name}
	}
	return cache.Source{Name: c.name, Metrics: slices.Concat(c.g.metrics(), c.hotDescs), CountersOnly: true}
}

// Pace hears how much slower than its interval the engine samples the
// source: above 1 when no client has read it for idle_after.
func (c *groupCollector) Pace(factor int) { c.pace = factor }

// OnDemand says the group samples only for its readers: slowed down
// from the start until a client reads it.
func (c *groupCollector) OnDemand() bool { return true }

// Sample reads the group's files of the processes last listed; while no
// client reads the group, nothing (its metrics then have no value).
func (c *groupCollector) Sample(b *cache.Builder, _ time.Time) error {
	if c.inert || c.pace > 1 {
		return nil
	}
	c.pids = c.board.read(c.pids)
	if len(c.hotIDs) > 0 {
		// With hotproc off, the hot twins of the values without
		// instances (autogroup.enabled) are set all the same, as
		// pmdaproc sets them.
		hot := c.board.hotSet()
		if hot == nil {
			hot = c.noHot
		}
		b.Mirror(hot, c.hotIDs)
		defer b.Mirror(nil, nil)
	}
	c.g.sample(&c.rd, c.pids, b)
	return nil
}
