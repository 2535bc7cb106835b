package collector

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// netDevNames name the network.interface counters, one per /proc/net/dev
// column: the item of each is its column, as in pmdalinux.
var netDevNames = [netDevColumns]string{
	"in.bytes", "in.packets", "in.errors", "in.drops", "in.fifo", "in.frame", "in.compressed", "in.mcasts",
	"out.bytes", "out.packets", "out.errors", "out.drops", "out.fifo", "collisions", "out.carrier", "out.compressed",
}

// netDevTotals are network.interface.total.*, items 16-20: in + out. The
// kernel counts no outgoing multicasts, so total.mcasts is in.mcasts.
var netDevTotals = []struct {
	name    string
	columns []int
}{
	{"total.bytes", []int{0, 8}}, {"total.packets", []int{1, 9}}, {"total.errors", []int{2, 10}},
	{"total.drops", []int{3, 11}}, {"total.mcasts", []int{7}},
}

// netDevUnits gives bytes to the byte columns and counts to the others.
func netDevUnits(column int) cache.Units {
	if column == 0 || column == 8 {
		return cache.UnitsByte
	}
	return cache.UnitsCount
}

func netIfDesc(item uint32, name string, t cache.Type, sem cache.Sem, u cache.Units) cache.Desc {
	return metric(clusterNetdev, item, "network.interface."+name, t, sem, u, indomInterface)
}

// The sysfs attributes, with pmdalinux's items. Item 27 is hinv.ninterface.
var (
	netIfMTU      = netIfDesc(21, "mtu", cache.TypeU32, cache.SemInstant, cache.UnitsByte)
	netIfSpeed    = netIfDesc(22, "speed", cache.TypeFloat, cache.SemDiscrete, cache.MakeUnits(1, -1, 0, cache.SpaceMByte, cache.TimeSec, 0))
	netIfBaudrate = netIfDesc(23, "baudrate", cache.TypeU64, cache.SemDiscrete, cache.MakeUnits(1, -1, 0, cache.SpaceByte, cache.TimeSec, 0))
	netIfDuplex   = netIfDesc(24, "duplex", cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)
	netIfUp       = netIfDesc(25, "up", cache.TypeU32, cache.SemInstant, cache.UnitsNone)
	netIfRunning  = netIfDesc(26, "running", cache.TypeU32, cache.SemInstant, cache.UnitsNone)
	netIfWireless = netIfDesc(28, "wireless", cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)
	netIfType     = netIfDesc(29, "type", cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)
	netIfVirtual  = netIfDesc(30, "virtual", cache.TypeU32, cache.SemDiscrete, cache.UnitsNone)
	netNInterface = metric(clusterNetdev, 27, "hinv.ninterface", cache.TypeU32, cache.SemDiscrete, cache.UnitsNone, cache.InDomNone)
)

// netCollector reads /proc/net/dev and /sys/class/net: per-interface
// counters and attributes, and the network.all aggregate.
type netCollector struct {
	devPath  string
	sys      netSysfs
	filter   Filter
	ids      *cache.IDMap
	counters [netDevColumns]cache.Desc // by column
	totals   []cache.Desc              // in netDevTotals order
	rates    *rates
	all      *netAll
	// fixed caches each present interface's unchanging attributes.
	fixed map[string]netIfFixed
	// states caches the changeable sysfs attributes (speed, mtu, up,
	// running...), re-read every stateRefresh samples: they change rarely,
	// and reading five files per interface every second dominated the
	// collector's cost.
	states  map[string]netIfState
	samples uint64
	// insts caches the instance table while membership and labels hold.
	insts *cache.Instances
	list  []cache.Instance // scratch for the next table
}

// NewNetworkCollector reads below env.Proc and env.Sys ("" skips /sys).
func NewNetworkCollector(env Env) (Collector, error) {
	if err := netCheckRoot(env.Proc); err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	c := &netCollector{
		devPath: filepath.Join(env.Proc, "net", "dev"),
		sys:     netSysfs{root: env.Sys},
		filter:  env.Filter,
		ids:     env.IDMap(indomInterface),
		rates:   newRates(),
		all:     newNetAll(env.Filter),
		fixed:   map[string]netIfFixed{},
		states:  map[string]netIfState{},
	}
	for col, name := range netDevNames {
		c.counters[col] = netIfDesc(uint32(col), name, cache.TypeU64, cache.SemCounter, netDevUnits(col))
	}
	for i, t := range netDevTotals {
		c.totals = append(c.totals, netIfDesc(uint32(netDevColumns+i), t.name, cache.TypeU64, cache.SemCounter, netDevUnits(t.columns[0])))
	}
	return c, nil
}

// netCheckRoot fails unless dir is a directory, so a bad root fails at start-up.
func netCheckRoot(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

func (c *netCollector) Name() string { return "network" }

func (c *netCollector) Resets() uint64 { return c.rates.resets }

func (c *netCollector) Source() cache.Source {
	descs := append(append([]cache.Desc(nil), c.counters[:]...), c.totals...)
	descs = append(descs, c.all.descs[:]...)
	descs = withRates(descs)
	descs = append(descs, netIfMTU, netIfSpeed, netIfBaudrate, netIfDuplex, netIfUp, netIfRunning,
		netIfWireless, netIfType, netIfVirtual, netNInterface)
	return cache.Source{
		Name:    c.Name(),
		Metrics: descs,
		InDoms:  []cache.InDomDesc{{ID: indomInterface, Name: "interface"}},
	}
}

// Sample reads /proc/net/dev once, and sysfs for each interface listed.
func (c *netCollector) Sample(b *cache.Builder, now time.Time) error {
	data, err := readFile(c.devPath)
	if err != nil {
		return fmt.Errorf("reading net/dev: %w", err)
	}
	lines, bad := parseNetDev(data)
	if len(lines) == 0 && bad > 0 {
		return fmt.Errorf("net/dev: none of %d interface lines parsed", bad)
	}
	c.rates.begin(now)
	c.all.begin()
	c.forgetVanished(lines)
	if c.samples%stateRefresh == 0 {
		clear(c.states)
	}
	c.samples++
	c.list = c.list[:0]
	for i := range lines {
		c.sampleInterface(b, &lines[i])
	}
	c.publishInstances(b)
	b.SetU64(netNInterface.ID, cache.InstNone, uint64(len(c.list)))
	c.all.publish(b, c.rates)
	c.rates.commit()
	c.all.commit()
	return nil
}

// forgetVanished drops the cached attributes of interfaces no longer
// listed, so one re-created under the same name is read afresh.
func (c *netCollector) forgetVanished(lines []netDevLine) {
	if len(c.fixed) == 0 {
		return
	}
	present := make(map[string]bool, len(lines))
	for i := range lines {
		present[lines[i].name] = true
	}
	for name := range c.fixed {
		if !present[name] {
			delete(c.fixed, name)
			delete(c.states, name)
		}
	}
}

// sampleInterface counts one interface in network.all when it belongs
// there, and publishes it unless the administrator filtered it out.
func (c *netCollector) sampleInterface(b *cache.Builder, l *netDevLine) {
	f, ok := c.fixed[l.name]
	if !ok {
		f = c.sys.fixed(l.name)
		c.fixed[l.name] = f
	}
	if c.all.counts(l.name, f) {
		c.all.add(l)
	}
	if !c.filter.Keep("interface", l.name) {
		return
	}
	id := c.ids.ID(l.name)
	c.list = append(c.list, cache.Instance{ID: id, Name: l.name, Labels: f.labels})
	for col := range c.counters {
		c.rates.counter(b, &c.counters[col], id, l.v[col])
	}
	for i, t := range netDevTotals {
		var sum uint64
		for _, col := range t.columns {
			sum += l.v[col]
		}
		c.rates.counter(b, &c.totals[i], id, sum)
	}
	st, ok := c.states[l.name]
	if !ok {
		st = c.sys.state(l.name)
		c.states[l.name] = st
	}
	c.publishAttributes(b, id, f, st)
}

// stateRefresh is how many samples the changeable attributes are kept.
const stateRefresh = 10

// publishAttributes sets the sysfs attributes known for one interface.
func (c *netCollector) publishAttributes(b *cache.Builder, id uint32, f netIfFixed, st netIfState) {
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
	sort.Slice(c.list, func(i, j int) bool { return c.list[i].ID < c.list[j].ID })
	if c.insts == nil || !slices.EqualFunc(c.insts.All(), c.list, netSameInstance) {
		c.insts = cache.NewInstances(slices.Clone(c.list))
	}
	b.SetInDom(indomInterface, c.insts)
}

func netSameInstance(a, b cache.Instance) bool {
	return a.ID == b.ID && a.Name == b.Name && slices.Equal(a.Labels, b.Labels)
}
