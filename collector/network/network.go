package network

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
)

// netIfCounters are the network.interface counters, one per /proc/net/dev
// column: the item of each is its column, as in pmdalinux.
var netIfCounters = [kernel.NetDevColumns]cache.Desc{
	engine.Row{Name: "hostcache.network.interface.in.bytes", Cluster: clusterNetdev, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.packets", Cluster: clusterNetdev, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.errors", Cluster: clusterNetdev, Item: 2,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.drops", Cluster: clusterNetdev, Item: 3,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.fifo", Cluster: clusterNetdev, Item: 4,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.frame", Cluster: clusterNetdev, Item: 5,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.compressed", Cluster: clusterNetdev, Item: 6,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.in.mcasts", Cluster: clusterNetdev, Item: 7,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.bytes", Cluster: clusterNetdev, Item: 8,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.packets", Cluster: clusterNetdev, Item: 9,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.errors", Cluster: clusterNetdev, Item: 10,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.drops", Cluster: clusterNetdev, Item: 11,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.fifo", Cluster: clusterNetdev, Item: 12,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.collisions", Cluster: clusterNetdev, Item: 13,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.carrier", Cluster: clusterNetdev, Item: 14,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
	engine.Row{Name: "hostcache.network.interface.out.compressed", Cluster: clusterNetdev, Item: 15,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomInterface}.Desc(),
}

// netIfTotals are network.interface.total.*, items 16-20: in + out. The
// kernel counts no outgoing multicasts, so total.mcasts is in.mcasts.
var netIfTotals = []struct {
	desc    cache.Desc
	columns []int
}{
	{engine.Row{Name: "hostcache.network.interface.total.bytes", Cluster: clusterNetdev, Item: 16,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsByte,
		InDom: indomInterface}.Desc(), []int{0, 8}},
	{engine.Row{Name: "hostcache.network.interface.total.packets", Cluster: clusterNetdev, Item: 17,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomInterface}.Desc(), []int{1, 9}},
	{engine.Row{Name: "hostcache.network.interface.total.errors", Cluster: clusterNetdev, Item: 18,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomInterface}.Desc(), []int{2, 10}},
	{engine.Row{Name: "hostcache.network.interface.total.drops", Cluster: clusterNetdev, Item: 19,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomInterface}.Desc(), []int{3, 11}},
	{engine.Row{Name: "hostcache.network.interface.total.mcasts", Cluster: clusterNetdev, Item: 20,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomInterface}.Desc(), []int{7}},
}

// The sysfs attributes, with pmdalinux's items. Item 27 is hinv.ninterface.
var (
	netIfMTU = engine.Row{Name: "hostcache.network.interface.mtu", Cluster: clusterNetdev, Item: 21,
		Type: cache.TypeU32, Sem: cache.SemInstant, Units: cache.UnitsByte, InDom: indomInterface}.Desc()
	netIfSpeed = engine.Row{Name: "hostcache.network.interface.speed", Cluster: clusterNetdev, Item: 22,
		Type: cache.TypeFloat, Sem: cache.SemDiscrete,
		Units: cache.MakeUnits(1, -1, 0, cache.SpaceMByte, cache.TimeSec, 0), InDom: indomInterface}.Desc()
	netIfBaudrate = engine.Row{Name: "hostcache.network.interface.baudrate", Cluster: clusterNetdev, Item: 23,
		Type: cache.TypeU64, Sem: cache.SemDiscrete,
		Units: cache.MakeUnits(1, -1, 0, cache.SpaceByte, cache.TimeSec, 0), InDom: indomInterface}.Desc()
	netIfDuplex = engine.Row{Name: "hostcache.network.interface.duplex", Cluster: clusterNetdev, Item: 24,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomInterface}.Desc()
	netIfUp = engine.Row{Name: "hostcache.network.interface.up", Cluster: clusterNetdev, Item: 25,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomInterface}.Desc()
	netIfRunning = engine.Row{Name: "hostcache.network.interface.running", Cluster: clusterNetdev, Item: 26,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomInterface}.Desc()
	netIfWireless = engine.Row{Name: "hostcache.network.interface.wireless", Cluster: clusterNetdev, Item: 28,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomInterface}.Desc()
	netIfType = engine.Row{Name: "hostcache.network.interface.type", Cluster: clusterNetdev, Item: 29,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomInterface}.Desc()
	netIfVirtual = engine.Row{Name: "hostcache.network.interface.virtual", Cluster: clusterNetdev, Item: 30,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: indomInterface}.Desc()
	netNInterface = engine.Row{Name: "hostcache.hinv.ninterface", Cluster: clusterNetdev, Item: 27,
		Type: cache.TypeU32, Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// netCollector reads /proc/net/dev and /sys/class/net: per-interface
// counters and attributes, and the network.all aggregate.
type netCollector struct {
	dev      *kernel.File // /proc/net/dev
	buf      []byte       // its text, reused
	lines    []kernel.NetDevLine
	sys      netSysfs
	filter   engine.Filter
	ids      *cache.IDMap
	counters [kernel.NetDevColumns]cache.Desc // by column
	totals   []cache.Desc                     // in netIfTotals order
	// counterSlots and totalSlots are counters and totals checked once
	// in this sample's builder.
	counterSlots [kernel.NetDevColumns]cache.Slot
	totalSlots   []cache.Slot
	all          *netAll
	// ifs holds each listed interface, found by its name's bytes without
	// allocating; an interface is forgotten when it leaves /proc/net/dev,
	// so one re-created under the same name is read afresh.
	ifs map[string]*netIf
	seq uint64 // this sample's number: netIf.seen of the listed interfaces
	// listed counts the interfaces of this sample, to tell without a
	// look at every one whether some vanished.
	listed int
	// The changeable sysfs attributes (speed, mtu, up, running...) are
	// re-read every stateRefresh samples: they change rarely, and reading
	// five files per interface every second dominated the collector's
	// cost. epoch counts the refreshes; netIf.stateEpoch says which one
	// an interface's attributes are from.
	samples uint64
	epoch   uint64
	// insts caches the instance table while membership and labels hold.
	insts *cache.Instances
	list  []cache.Instance // scratch for the next table
	memo  kernel.Memo      // the text of the last sample built
}

// netIf is what the collector knows about one listed interface. All of it
// but state is fixed while the interface exists.
type netIf struct {
	name       string
	dir        []byte // its sysfs directory, NUL-terminated (see netSysfs)
	seen       uint64 // the sample that last listed it
	keep       bool   // the "interface" filter keeps it: published
	id         uint32 // its instance id, when kept
	counted    bool   // counted in network.all
	fixed      netIfFixed
	state      netIfState
	stateEpoch uint64      // the refresh state was read in; 0 never
	files      *netIfFiles // its changeable attributes kept open; nil: by path
}

// NewNetworkCollector reads below env.Proc and env.Sys ("" skips /sys).
func NewNetworkCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Proc); err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	c := &netCollector{
		dev:    kernel.NewFileKept(env.Proc, filepath.Join(env.Proc, "net", "dev"), env.KeepFiles),
		buf:    make([]byte, 0, 4096),
		sys:    netSysfs{root: env.Sys, keepAll: env.KeepFiles, maxKept: keptInterfaceLimit()},
		filter: env.Filter,
		ids:    env.IDMap(indomInterface),
		all:    newNetAll(env.Filter),
		ifs:    map[string]*netIf{},
	}
	c.counters = netIfCounters
	for _, t := range netIfTotals {
		c.totals = append(c.totals, t.desc)
	}
	return c, nil
}

func (c *netCollector) Name() string { return "network" }

// Derived declares the network.all rates (see netAll).
func (c *netCollector) Derived() []engine.Derived { return c.all.derived() }

func (c *netCollector) Source() cache.Source {
	descs := append(append([]cache.Desc(nil), c.counters[:]...), c.totals...)
	descs = append(descs, c.all.descs[:]...)
	descs = append(descs, netIfMTU, netIfSpeed, netIfBaudrate, netIfDuplex, netIfUp, netIfRunning,
		netIfWireless, netIfType, netIfVirtual, netNInterface)
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms: []cache.InDomDesc{{ID: indomInterface, Name: "interface",
			Labels: hostkit.IndomLabels(`"interface"`, "per interface"), NameLabel: "interface"}},
	}
}

// Sample reads /proc/net/dev once, and sysfs for each interface listed.
func (c *netCollector) Sample(b *cache.Builder, now time.Time) error {
	var err error
	if c.buf, err = c.dev.Read(c.buf); err != nil {
		return fmt.Errorf("reading net/dev: %w", err)
	}
	if c.samples%stateRefresh != 0 && c.memo.Same(c.buf) && b.Again() {
		c.samples++ // the same text, no attribute due: the same values
		return nil
	}
	var bad int
	c.lines, bad = kernel.ParseNetDev(c.buf, c.lines)
	if len(c.lines) == 0 && bad > 0 {
		return fmt.Errorf("net/dev: none of %d interface lines parsed", bad)
	}
	c.all.begin()
	c.seq++
	c.listed = 0
	if c.samples%stateRefresh == 0 {
		c.epoch++
	}
	c.samples++
	c.list = c.list[:0]
	for col, d := range c.counters {
		c.counterSlots[col] = b.U64Slot(d.ID)
	}
	c.totalSlots = c.totalSlots[:0]
	for _, d := range c.totals {
		c.totalSlots = append(c.totalSlots, b.U64Slot(d.ID))
	}
	for i := range c.lines {
		c.sampleInterface(b, &c.lines[i])
	}
	c.forgetVanished()
	c.publishInstances(b)
	b.SetU64(netNInterface.ID, cache.InstNone, uint64(len(c.list)))
	c.all.publish(b)
	c.memo.Keep(c.buf)
	return nil
}

// forgetVanished drops the interfaces this sample did not list.
func (c *netCollector) forgetVanished() {
	if c.listed == len(c.ifs) {
		return
	}
	for name, n := range c.ifs {
		if n.seen != c.seq {
			c.sys.closeFiles(n.files)
			delete(c.ifs, name)
		}
	}
}

// lookup returns the interface named in a line, met for the first time
// when new; nil when it was listed already in this sample (a damaged file:
// the first line counts).
func (c *netCollector) lookup(name []byte) *netIf {
	n, ok := c.ifs[string(name)] // no allocation for the lookup
	if !ok {
		n = c.newInterface(string(name))
		c.ifs[n.name] = n
	} else if n.seen == c.seq {
		return nil
	}
	n.seen = c.seq
	c.listed++
	return n
}

// newInterface reads what cannot change about an interface, and decides
// once whether it is published and counted in network.all.
func (c *netCollector) newInterface(name string) *netIf {
	n := &netIf{name: name, dir: c.sys.dir(name), fixed: c.sys.fixed(name)}
	if n.fixed.inSys {
		n.files = c.sys.openFiles(name)
	}
	n.counted = c.all.counts(name, n.fixed)
	n.keep = c.filter.Keep("interface", name)
	if n.keep {
		n.id = c.ids.ID(name)
	}
	return n
}

// sampleInterface counts one interface in network.all when it belongs
// there, and publishes it unless the administrator filtered it out.
func (c *netCollector) sampleInterface(b *cache.Builder, l *kernel.NetDevLine) {
	n := c.lookup(l.Name)
	if n == nil {
		return
	}
	if n.counted {
		c.all.add(&l.V, n.id, n.keep)
	}
	if !n.keep {
		return
	}
	id := n.id
	c.list = append(c.list, cache.Instance{ID: id, Name: n.name, Labels: n.fixed.labels})
	for col, slot := range c.counterSlots {
		b.SetSlot(slot, id, l.V[col])
	}
	for i, t := range netIfTotals {
		var sum uint64
		for _, col := range t.columns {
			sum += l.V[col]
		}
		b.SetSlot(c.totalSlots[i], id, sum)
	}
	if n.stateEpoch != c.epoch {
		all := n.stateEpoch == 0 || c.epoch%linkRefreshes == 0
		n.state, n.stateEpoch = c.sys.state(n.dir, n.files, n.state, all), c.epoch
	}
	c.publishAttributes(b, id, &n.fixed, &n.state)
}

// stateRefresh is how many samples the changeable attributes are kept;
// the link settings (mtu, speed, duplex), which change only when an
// administrator or a renegotiation acts, are read at every linkRefreshes-th
// refresh: a minute at the default interval. Reading five files per
// interface every refresh was a tenth of the agent's background.
const (
	stateRefresh  = 10
	linkRefreshes = 6
)

// publishAttributes sets the sysfs attributes known for one interface.
func (c *netCollector) publishAttributes(b *cache.Builder, id uint32, f *netIfFixed, st *netIfState) {
	if f.inSys {
		b.SetU64(netIfVirtual.ID, id, netBool(f.virtual))
		b.SetU64(netIfWireless.ID, id, netBool(f.wireless))
	}
	if f.hasType {
		b.SetU64(netIfType.ID, id, uint64(f.typ))
	}
	if st.hasMTU {
		b.SetU64(netIfMTU.ID, id, uint64(st.mtu))
	}
	if st.hasSpeed {
		// pmdalinux's units: Mbit/s to "Mbyte" of 2^20 bytes per second.
		b.SetDouble(netIfSpeed.ID, id, float64(st.speed)*1e6/8/1024/1024)
		b.SetU64(netIfBaudrate.ID, id, st.speed*1000000/8)
	}
	if st.hasDuplex {
		b.SetU64(netIfDuplex.ID, id, uint64(st.duplex))
	}
	if st.hasUp {
		b.SetU64(netIfUp.ID, id, uint64(st.up))
	}
	if st.hasRunning {
		b.SetU64(netIfRunning.ID, id, uint64(st.running))
	}
}

func netBool(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// publishInstances publishes the interface domain in instance id order,
// building a new table only when an interface or its labels changed.
func (c *netCollector) publishInstances(b *cache.Builder) {
	slices.SortFunc(c.list, func(a, b cache.Instance) int { return cmp.Compare(a.ID, b.ID) })
	if c.insts == nil || !slices.EqualFunc(c.insts.All(), c.list, netSameInstance) {
		c.insts = cache.NewInstances(slices.Clone(c.list))
	}
	b.SetInDom(indomInterface, c.insts)
}

func netSameInstance(a, b cache.Instance) bool {
	return a.ID == b.ID && a.Name == b.Name && slices.Equal(a.Labels, b.Labels)
}
