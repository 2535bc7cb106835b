package network

import (
	"regexp"
	"slices"
	"sync/atomic"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// AllFilterKey is the Filter key whose patterns, when configured, choose
// the interfaces network.all.* adds up instead of the default rule.
const AllFilterKey = "network.all"

// arphrdLoopback is the sysfs type of a loopback interface.
const arphrdLoopback = 772

// netAllColumns are the /proc/net/dev columns network.all.{in,out}.* sum:
// in bytes, packets, errors, drops, then the same four out.
var netAllColumns = [8]int{0, 1, 2, 3, 8, 9, 10, 11}

// netAllDescs are network.all.*: in.X and out.X in netAllColumns order,
// then total.X = in.X + out.X. Items are 100 + pmdalinux's item in its
// network.all cluster.
var netAllDescs = [12]cache.Desc{
	engine.Row{Name: "hostcache.network.all.in.bytes", Cluster: clusterNetdev, Item: 100, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.in.packets", Cluster: clusterNetdev, Item: 101, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.in.errors", Cluster: clusterNetdev, Item: 102, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.in.drops", Cluster: clusterNetdev, Item: 103, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.out.bytes", Cluster: clusterNetdev, Item: 104, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.out.packets", Cluster: clusterNetdev, Item: 105,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.out.errors", Cluster: clusterNetdev, Item: 106, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.out.drops", Cluster: clusterNetdev, Item: 107, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.total.bytes", Cluster: clusterNetdev, Item: 108,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.total.packets", Cluster: clusterNetdev, Item: 109,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.total.errors", Cluster: clusterNetdev, Item: 110,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
	engine.Row{Name: "hostcache.network.all.total.drops", Cluster: clusterNetdev, Item: 111,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: cache.InDomNone}.Desc(),
}

// pmdalinuxVirtualNames is the pattern PCP ships in linux/interfaces.conf
// to keep software interfaces out of network.all. We use it only for an
// interface sysfs does not show (no /sys, or another network namespace).
var pmdalinuxVirtualNames = regexp.MustCompile(`^(lo|bond[0-9]+|team[0-9]+|tun[0-9]+|virbr[0-9]+|virbr[0-9]+-nic|` +
	`cni[0-9]+|cni-podman[0-9]+|docker[0-9]+|veth[0-9]+|face)$`)

// netAll adds up the interfaces counted in network.all.*. The rate of a
// sum over a changing set of interfaces is the sum of the growth of the
// interfaces present at both ends of the interval: rating the raw sum
// instead would show a spike when an interface appears and lose the step
// when one vanishes. So rate.network.all.X is derived (Derived) from the
// members' own network.interface counters over the client's window; only
// when a counted interface is not published (the administrator's
// instance filter hides it) does it fall back to the rate of the sum.
type netAll struct {
	filter  engine.Filter
	custom  bool // the filter has AllFilterKey patterns: they decide
	descs   [12]cache.Desc
	sum     [8]uint64
	current []uint32 // published members' instance ids, this sample
	hidden  bool     // a counted interface is not published this sample
	members atomic.Pointer[netAllMembers]
}

// netAllMembers is the membership the rates are derived over, replaced
// (never modified) when it changes, so readers need no lock.
type netAllMembers struct {
	insts    []uint32
	complete bool // every counted interface is among insts
}

func newNetAll(f engine.Filter) *netAll {
	a := &netAll{}
	_, a.custom = f[AllFilterKey]
	a.filter = f
	a.descs = netAllDescs
	a.members.Store(&netAllMembers{})
	return a
}

// counts reports whether an interface belongs in network.all.*. By default
// loopback and virtual interfaces do not: only traffic through hardware is
// counted, once (a bridge or VLAN would count its ports' traffic again).
// The answer depends only on the name and unchanging attributes: the
// collector asks once per interface.
func (a *netAll) counts(name string, f netIfFixed) bool {
	if a.custom {
		return a.filter.Keep(AllFilterKey, name)
	}
	if !f.inSys {
		return !pmdalinuxVirtualNames.MatchString(name)
	}
	return !f.virtual && !(f.hasType && f.typ == arphrdLoopback)
}

// begin starts a sample.
func (a *netAll) begin() {
	a.sum = [8]uint64{}
	a.current = a.current[:0]
	a.hidden = false
}

// add counts one interface's /proc/net/dev counters in the sums; id is its
// instance id when it is published.
func (a *netAll) add(v *[kernel.NetDevColumns]uint64, id uint32, published bool) {
	for i, col := range netAllColumns {
		a.sum[i] += v[col]
	}
	if published {
		a.current = append(a.current, id)
	} else {
		a.hidden = true
	}
}

// publish sets the sums and, when it changed, the membership.
func (a *netAll) publish(b *cache.Builder) {
	for i := range 8 {
		b.SetU64(a.descs[i].ID, cache.InstNone, a.sum[i])
	}
	for i := range 4 {
		b.SetU64(a.descs[8+i].ID, cache.InstNone, a.sum[i]+a.sum[i+4])
	}
	old := a.members.Load()
	if old.complete != !a.hidden || !slices.Equal(old.insts, a.current) {
		a.members.Store(&netAllMembers{insts: slices.Clone(a.current), complete: !a.hidden})
	}
}

// derived declares rate.network.all.X as the sum of the members' rates.
func (a *netAll) derived() []engine.Derived {
	out := make([]engine.Derived, 0, 12)
	for i, d := range a.descs {
		cols := []int{netAllColumns[i%8]}
		if i >= 8 {
			cols = []int{netAllColumns[i-8], netAllColumns[i-4]}
		}
		out = append(out, engine.Derived{
			Desc: engine.RateDesc(d), Like: d.ID, Value: a.rateOf(d, cols), Peaks: true,
		})
	}
	return out
}

// rateOf sums the rates of the members' counters of the given columns.
func (a *netAll) rateOf(sum cache.Desc, cols []int) func(w *engine.Window, _ uint32) (float64, bool) {
	return func(w *engine.Window, _ uint32) (float64, bool) {
		m := a.members.Load()
		if !m.complete {
			return w.Rate(sum.ID, cache.InstNone, 1)
		}
		var total float64
		for _, inst := range m.insts {
			for _, col := range cols {
				if r, ok := w.Rate(netIfCounters[col].ID, inst, 1); ok {
					total += r
				}
			}
		}
		return total, w.Span() > 0
	}
}
