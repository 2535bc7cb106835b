package collector

import (
	"regexp"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// netAllFilterKey is the Filter key whose patterns, when configured, choose
// the interfaces network.all.* adds up instead of the default rule.
const netAllFilterKey = "network.all"

// arphrdLoopback is the sysfs type of a loopback interface.
const arphrdLoopback = 772

// netAllColumns are the /proc/net/dev columns network.all.{in,out}.* sum:
// in bytes, packets, errors, drops, then the same four out.
var netAllColumns = [8]int{0, 1, 2, 3, 8, 9, 10, 11}

// netAllDescs are network.all.*: in.X and out.X in netAllColumns order,
// then total.X = in.X + out.X. Items are 100 + pmdalinux's item in its
// network.all cluster.
var netAllDescs = [12]cache.Desc{
	engine.Metric("hostcache.network.all.in.bytes", clusterNetdev, 100, cache.TypeU64, cache.SemCounter, cache.UnitsByte, cache.InDomNone),
	engine.Metric("hostcache.network.all.in.packets", clusterNetdev, 101, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.in.errors", clusterNetdev, 102, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.in.drops", clusterNetdev, 103, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.out.bytes", clusterNetdev, 104, cache.TypeU64, cache.SemCounter, cache.UnitsByte, cache.InDomNone),
	engine.Metric("hostcache.network.all.out.packets", clusterNetdev, 105, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.out.errors", clusterNetdev, 106, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.out.drops", clusterNetdev, 107, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.total.bytes", clusterNetdev, 108, cache.TypeU64, cache.SemCounter, cache.UnitsByte, cache.InDomNone),
	engine.Metric("hostcache.network.all.total.packets", clusterNetdev, 109, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.total.errors", clusterNetdev, 110, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
	engine.Metric("hostcache.network.all.total.drops", clusterNetdev, 111, cache.TypeU64, cache.SemCounter, cache.UnitsCount, cache.InDomNone),
}

// pmdalinuxVirtualNames is the pattern PCP ships in linux/interfaces.conf
// to keep software interfaces out of network.all. We use it only for an
// interface sysfs does not show (no /sys, or another network namespace).
var pmdalinuxVirtualNames = regexp.MustCompile(`^(lo|bond[0-9]+|team[0-9]+|tun[0-9]+|virbr[0-9]+|virbr[0-9]+-nic|cni[0-9]+|cni-podman[0-9]+|docker[0-9]+|veth[0-9]+|face)$`)

// netAll adds up the interfaces counted in network.all.*, and derives the
// rates itself: the rate of a sum over a changing set of interfaces is the
// sum of the growth of the interfaces present at both ends of the interval.
// Rating the raw sum instead would show a spike when an interface appears
// and a reset when one vanishes.
//
// Each member's values are kept with the interface (netAllMember), which
// the collector keeps while it is listed, so a sample touches no map.
type netAll struct {
	filter  engine.Filter
	custom  bool // the filter has netAllFilterKey patterns: they decide
	descs   [12]cache.Desc
	members []*netAllMember // counted in this sample
	sum     [8]uint64
	seq     uint64 // this sample's number, from 1
	prevSeq uint64 // the number of the last committed sample; 0 none
}

// netAllMember is one interface's part in network.all.
type netAllMember struct {
	cur, prev [8]uint64
	prevSeq   uint64 // the sample prev is from: a member of it when it is netAll.prevSeq
}

func newNetAll(f engine.Filter) *netAll {
	a := &netAll{}
	_, a.custom = f[netAllFilterKey]
	a.filter = f
	a.descs = netAllDescs
	return a
}

// counts reports whether an interface belongs in network.all.*. By default
// loopback and virtual interfaces do not: only traffic through hardware is
// counted, once (a bridge or VLAN would count its ports' traffic again).
// The answer depends only on the name and unchanging attributes: the
// collector asks once per interface.
func (a *netAll) counts(name string, f netIfFixed) bool {
	if a.custom {
		return a.filter.Keep(netAllFilterKey, name)
	}
	if !f.inSys {
		return !pmdalinuxVirtualNames.MatchString(name)
	}
	return !f.virtual && !(f.hasType && f.typ == arphrdLoopback)
}

// begin starts a sample.
func (a *netAll) begin() {
	a.seq++
	a.members = a.members[:0]
	a.sum = [8]uint64{}
}

// add counts one interface's /proc/net/dev counters in the sums.
func (a *netAll) add(m *netAllMember, v *[kernel.NetDevColumns]uint64) {
	for i, col := range netAllColumns {
		m.cur[i] = v[col]
		a.sum[i] += v[col]
	}
	a.members = append(a.members, m)
}

// publish sets the sums and their rates. A member whose counter went
// backwards leaves that metric without a rate, counted in r.resets.
func (a *netAll) publish(b *cache.Builder, r *engine.Rates) {
	secs, haveRate := r.Interval()
	var delta [8]uint64
	var ok [8]bool
	for i := range ok {
		ok[i] = haveRate
	}
	for _, m := range a.members {
		if a.prevSeq == 0 || m.prevSeq != a.prevSeq {
			continue // new: its growth before now is unknown, not a burst
		}
		for i, v := range m.cur {
			if v < m.prev[i] {
				ok[i] = false
			} else {
				delta[i] += v - m.prev[i]
			}
		}
	}
	for i := range 8 {
		a.set(b, r, &a.descs[i], a.sum[i], float64(delta[i]), secs, ok[i], haveRate)
	}
	for i := range 4 {
		a.set(b, r, &a.descs[8+i], a.sum[i]+a.sum[i+4], float64(delta[i]+delta[i+4]), secs,
			ok[i] && ok[i+4], haveRate)
	}
}

func (a *netAll) set(b *cache.Builder, r *engine.Rates, d *cache.Desc, v uint64, delta, secs float64, ok, haveRate bool) {
	b.SetU64(d.ID, cache.InstNone, v)
	switch {
	case ok:
		b.SetDouble(engine.RateID(d.ID), cache.InstNone, delta/secs)
	case haveRate:
		r.Resets++
	}
}

// commit makes this sample's members the previous ones.
func (a *netAll) commit() {
	for _, m := range a.members {
		m.prev, m.prevSeq = m.cur, a.seq
	}
	a.prevSeq = a.seq
}
