package collector

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// netIfCounters are the network.interface counters, one per /proc/net/dev
// column: the item of each is its column, as in pmdalinux.
var netIfCounters = [kernel.NetDevColumns]cache.Desc{
	engine.Metric("hostcache.network.interface.in.bytes", clusterNetdev, 0, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomInterface),
	engine.Metric("hostcache.network.interface.in.packets", clusterNetdev, 1, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.errors", clusterNetdev, 2, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.drops", clusterNetdev, 3, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.fifo", clusterNetdev, 4, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.frame", clusterNetdev, 5, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.compressed", clusterNetdev, 6, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.in.mcasts", clusterNetdev, 7, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.bytes", clusterNetdev, 8, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomInterface),
	engine.Metric("hostcache.network.interface.out.packets", clusterNetdev, 9, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.errors", clusterNetdev, 10, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.drops", clusterNetdev, 11, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.fifo", clusterNetdev, 12, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.collisions", clusterNetdev, 13, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.carrier", clusterNetdev, 14, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
	engine.Metric("hostcache.network.interface.out.compressed", clusterNetdev, 15, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface),
}

// netIfTotals are network.interface.total.*, items 16-20: in + out. The
// kernel counts no outgoing multicasts, so total.mcasts is in.mcasts.
var netIfTotals = []struct {
	desc    cache.Desc
	columns []int
}{
	{engine.Metric("hostcache.network.interface.total.bytes", clusterNetdev, 16, cache.TypeU64, cache.SemCounter, cache.UnitsByte, indomInterface), []int{0, 8}},
	{engine.Metric("hostcache.network.interface.total.packets", clusterNetdev, 17, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface), []int{1, 9}},
	{engine.Metric("hostcache.network.interface.total.errors", clusterNetdev, 18, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface), []int{2, 10}},
	{engine.Metric("hostcache.network.interface.total.drops", clusterNetdev, 19, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface), []int{3, 11}},
	{engine.Metric("hostcache.network.interface.total.mcasts", clusterNetdev, 20, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomInterface), []int{7}},
}

// The sysfs attributes, with pmdalinux's items. Item 27 is hinv.ninterface.
var (
	netIfMTU      = engine.Metric("hostcache.network.interface.mtu", clusterNetdev, 21, cache.TypeU32, cache.SemInstant, cache.UnitsByte, indomInterface)
	netIfSpeed    = engine.Metric("hostcache.network.interface.speed", clusterNetdev, 22, cache.TypeFloat, cache.SemDiscrete, cache.MakeUnits(1, -1, 0, cache.SpaceMByte, cache.TimeSec, 0), indomInterface)
	netIfBaudrate = engine.Metric("hostcache.network.interface.baudrate", clusterNetdev, 23, cache.TypeU64, cache.SemDiscrete, cache.MakeUnits(1, -1, 0, cache.SpaceByte, cache.TimeSec, 0), indomInterface)
	netIfDuplex   = engine.Metric("hostcache.network.interface.duplex", clusterNetdev, 24, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, indomInterface)
	netIfUp       = engine.Metric("hostcache.network.interface.up", clusterNetdev, 25, cache.TypeU32, cache.SemInstant, cache.UnitsNone, indomInterface)
	netIfRunning  = engine.Metric("hostcache.network.interface.running", clusterNetdev, 26, cache.TypeU32, cache.SemInstant, cache.UnitsNone, indomInterface)
	netIfWireless = engine.Metric("hostcache.network.interface.wireless", clusterNetdev, 28, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, indomInterface)
	netIfType     = engine.Metric("hostcache.network.interface.type", clusterNetdev, 29, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, indomInterface)
	netIfVirtual  = engine.Metric("hostcache.network.interface.virtual", clusterNetdev, 30, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, indomInterface)
	netNInterface = engine.Metric("hostcache.hinv.ninterface", clusterNetdev, 27, cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
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
	if err := checkDir(env.Proc); err != nil {
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
		InDoms:  []cache.InDomDesc{{ID: indomInterface, Name: "interface", Labels: indomLabels(`"interface"`, "per interface"), NameLabel: "interface"}},
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
