package collector

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// diskLayoutRefresh is how long a device set is trusted: once a minute
// the lines are placed afresh, which is when a dm device renamed in place
// (same dm-N, new mapped name) shows its new name. It is stretched while
// no client reads the source (paced).
const diskLayoutRefresh = time.Minute

// diskLine is where one line of /proc/diskstats went at the last full
// placement: a host's devices rarely change, so while the file lists the
// same devices in the same order a sample reuses this instead of
// classifying, filtering, naming and labelling each line again.
type diskLine struct {
	name         string // the kernel name, the parser's string (reused while unchanged)
	major, minor uint32
	ios          uint64 // reads + writes: going back means a new device under the name
	tree         diskTree
	keep         bool // published (ours, allowed by the filter, not a duplicate)
	inst         uint32
	attrs        *diskAttrs // a disk's, as attrCache holds them
}

// diskLayout is the placement of every line and the members of each tree.
type diskLayout struct {
	lines  []diskLine
	lists  [diskNTrees][]cache.Instance
	placed time.Time
	// replaced are the kernel names fits found with counters gone back:
	// new devices, whose labels and attributes are read afresh.
	replaced []string
}

// fits reports whether stats lists the layout's devices, in its order,
// none of them replaced, and the layout is younger than refresh.
func (l *diskLayout) fits(stats []kernel.Diskstats, now time.Time, refresh time.Duration) bool {
	if len(stats) != len(l.lines) || now.Sub(l.placed) >= refresh || now.Before(l.placed) {
		return false
	}
	for i := range stats {
		s, p := &stats[i], &l.lines[i]
		if s.Name != p.name || s.Major != p.major || s.Minor != p.minor {
			return false
		}
		if s.ReadIOs+s.WriteIOs < p.ios {
			l.replaced = append(l.replaced, p.name)
			return false
		}
	}
	return true
}

// forgetReplaced drops what the collector knows of replaced devices.
func (c *diskCollector) forgetReplaced() {
	for _, name := range c.layout.replaced {
		delete(c.meta, name)
		delete(c.attrCache, name)
	}
	c.layout.replaced = c.layout.replaced[:0]
}

// publishLaidOut publishes a sample whose devices fit the layout.
func (c *diskCollector) publishLaidOut(b *cache.Builder, stats []kernel.Diskstats, now time.Time) *diskSum {
	sum := newDiskSum(stats)
	for i := range stats {
		s, p := &stats[i], &c.layout.lines[i]
		p.ios = s.ReadIOs + s.WriteIOs
		if !p.keep {
			continue
		}
		c.publishDevice(b, p.tree, p.inst, s)
		switch p.tree {
		case diskDev:
			sum.add(s)
			p.attrs = c.attrs(s.Name, p.attrs, now)
			c.publishAttrs(b, p.inst, p.attrs)
			c.wwids.add(s, *p.attrs)
		case diskMD:
			c.publishMD(b, p.inst, s.Name, now)
		}
	}
	return sum
}
