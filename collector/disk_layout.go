package collector

import (
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// diskLayoutRefresh is how long a device set is trusted: once a minute
// each dm device's mapped name and each md array's persistent name are
// read again, which is when one renamed in place (same dm-N, new mapped
// name) shows its new name; the lines are
// placed afresh only if one changed. It is stretched while no client
// reads the source (paced).
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
	dm           bool       // a device-mapper device, placed by its mapped name
	md           bool       // an md array, placed by its persistent name
	mapped       string     // that name as placed; "" when it had none
}

// diskLayout is the placement of every line and the members of each tree.
type diskLayout struct {
	lines  []diskLine
	lists  [diskNTrees][]cache.Instance
	placed time.Time
	// placements counts full placements, for the tests of when they happen.
	placements int
	// replaced are the kernel names fits found with counters gone back:
	// new devices, whose labels and attributes are read afresh.
	replaced []string
}

// fits reports whether stats lists the layout's devices, in its order,
// none of them replaced, and the layout is younger than refresh or, past
// it, every dm device still has the mapped name it was placed by (then
// the layout is trusted for another refresh).
func (c *diskCollector) fits(stats []kernel.Diskstats, now time.Time, refresh time.Duration) bool {
	l := &c.layout
	if !l.matches(stats) {
		return false
	}
	if now.Sub(l.placed) < refresh && !now.Before(l.placed) {
		return true
	}
	if !c.dmNamesHold() {
		return false
	}
	l.placed = now
	return true
}

// dmNamesHold reports whether each dm line's mapped name, and each md
// line's persistent name, reads as placed.
func (c *diskCollector) dmNamesHold() bool {
	for i := range c.layout.lines {
		p := &c.layout.lines[i]
		if p.dm {
			if mapped, _ := c.sys.dmName(p.name); mapped != p.mapped {
				return false
			}
		}
		if p.md && mdName(c.mdLinks, p.name) != p.mapped {
			return false
		}
	}
	return true
}

// matches reports whether stats lists the layout's devices, in its order,
// none of them replaced.
func (l *diskLayout) matches(stats []kernel.Diskstats) bool {
	if len(stats) != len(l.lines) {
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
		case diskPart, diskDM:
			c.publishSize(b, p.tree, p.inst, s.Name, now)
		case diskZram:
			c.zram.publish(b, p.inst, s.Name)
		}
	}
	return sum
}
