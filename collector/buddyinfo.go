package collector

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Free memory by block size, from /proc/buddyinfo, with pmdalinux's items
// (its cluster 67): how fragmented each zone's free memory is. One
// instance per zone, order and node, "Normal::order3::node0".
var (
	buddyPages = engine.Row{Name: "hostcache.mem.buddyinfo.pages", Cluster: clusterBuddy, Item: 0,
		Type: cache.TypeU64, Sem: cache.SemInstant, InDom: indomBuddy}.Desc()
	buddyTotal = engine.Row{Name: "hostcache.mem.buddyinfo.total", Cluster: clusterBuddy, Item: 1,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomBuddy}.Desc()
)

// buddyinfoCollector reads /proc/buddyinfo.
type buddyinfoCollector struct {
	file   *kernel.File
	ids    *cache.IDMap
	pageKB uint64
	buf    []byte
	zones  []kernel.BuddyZone
	names  []string // instance names last built, in file order
	insts  []uint32 // their ids
	list   *cache.Instances
	orders int // orders published per zone, pmdalinux's count; -1 until read
}

// NewBuddyinfoCollector names /proc/buddyinfo below env.Proc.
func NewBuddyinfoCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "buddyinfo")
	if err != nil {
		return nil, fmt.Errorf("buddyinfo: %w", err)
	}
	return &buddyinfoCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles), ids: env.IDMap(indomBuddy),
		pageKB: uint64(os.Getpagesize() / 1024), orders: -1}, nil
}

func (c *buddyinfoCollector) Name() string { return "buddyinfo" }

func (c *buddyinfoCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{buddyPages, buddyTotal}, InDoms: []cache.InDomDesc{{
		ID: indomBuddy, Name: "buddy blocks",
		Labels: hostkit.IndomLabels(`["memory","numa_node"]`, "per buddy per numa_node"),
		Derive: buddyLabels}}}
}

// Sample reads the file once.
func (c *buddyinfoCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	var bad int
	c.zones, bad = kernel.ParseBuddyinfo(c.buf, c.zones)
	if len(c.zones) == 0 {
		return fmt.Errorf("%s: no zone read (%d lines malformed)", c.file.Path, bad)
	}
	if c.orders < 0 {
		c.orders = pmdalinuxOrders(c.buf)
	}
	for i := range c.zones {
		c.zones[i].Free = c.zones[i].Free[:min(len(c.zones[i].Free), c.orders)]
	}
	b.SetInDom(indomBuddy, c.instances())
	k := 0
	for _, z := range c.zones {
		for order, free := range z.Free {
			b.SetU64(buddyPages.ID, c.insts[k], free)
			b.SetU64(buddyTotal.ID, c.insts[k], free<<order*c.pageKB)
			k++
		}
	}
	return nil
}

// instances rebuilds the table when the zones or orders listed change.
func (c *buddyinfoCollector) instances() *cache.Instances {
	k, same := 0, c.list != nil
	for _, z := range c.zones {
		for order := range z.Free {
			same = same && k < len(c.names) && c.names[k] == buddyName(z, order)
			k++
		}
	}
	if same && k == len(c.names) {
		return c.list
	}
	c.names, c.insts = c.names[:0], c.insts[:0]
	list := make([]cache.Instance, 0, k)
	for _, z := range c.zones {
		for order := range z.Free {
			name := buddyName(z, order)
			id := c.ids.ID(name)
			c.names, c.insts = append(c.names, name), append(c.insts, id)
			list = append(list, cache.Instance{ID: id, Name: name})
		}
	}
	c.list = cache.NewInstances(list)
	return c.list
}

// pmdalinuxOrders is how many orders pmdalinux reads from each zone,
// counted once from the file's first line (its proc_buddyinfo.c): the
// blank-separated words less five, the end of the line making a word of
// its own only after a blank. The kernel ends every line with a blank, so
// that is every order it prints; a copy whose lines lost their trailing
// blank loses the last order in pmdalinux, and so here.
func pmdalinuxOrders(data []byte) int {
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	words := len(bytes.Fields(line))
	if bytes.HasSuffix(line, []byte{' '}) {
		words++
	}
	return max(words-5, 0)
}

// buddyName is pmdalinux's instance name: "Normal::order3::node0".
func buddyName(z kernel.BuddyZone, order int) string {
	return string(z.Zone) + "::order" + strconv.Itoa(order) + "::node" + strconv.Itoa(z.Node)
}

// buddyLabels derives pmdalinux's zone, order and numa_node labels from an
// instance's name.
func buddyLabels(x cache.Instance) []cache.Label {
	parts := strings.Split(x.Name, "::")
	if len(parts) != 3 {
		return nil
	}
	return []cache.Label{cache.StringLabel("zone", parts[0]),
		{Name: "order", Value: strings.TrimPrefix(parts[1], "order")},
		{Name: "numa_node", Value: strings.TrimPrefix(parts[2], "node")}}
}
