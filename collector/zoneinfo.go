package collector

import (
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

// Memory zones, from /proc/zoneinfo, with pmdalinux's names and items (its
// clusters 68 and 70). As pmdalinux: one instance per populated zone
// ("Normal::node0") and one per node for its node-wide counters ("node0"),
// and every figure in Kbyte, pages times the page size, counts such as
// numa_hit included. The metric's name is the zoneinfo key ("free" is
// "pages free").
var zoneinfoMetrics = []cache.Desc{
	engine.Row{Name: "hostcache.mem.zoneinfo.free", Cluster: clusterZoneinfo, Item: 0, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.min", Cluster: clusterZoneinfo, Item: 1, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.low", Cluster: clusterZoneinfo, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.high", Cluster: clusterZoneinfo, Item: 3, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.scanned", Cluster: clusterZoneinfo, Item: 4, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.spanned", Cluster: clusterZoneinfo, Item: 5, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.present", Cluster: clusterZoneinfo, Item: 6, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.managed", Cluster: clusterZoneinfo, Item: 7, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_free_pages", Cluster: clusterZoneinfo, Item: 8,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_alloc_batch", Cluster: clusterZoneinfo, Item: 9,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_inactive_anon", Cluster: clusterZoneinfo, Item: 10,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_active_anon", Cluster: clusterZoneinfo, Item: 11,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_inactive_file", Cluster: clusterZoneinfo, Item: 12,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_active_file", Cluster: clusterZoneinfo, Item: 13,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_unevictable", Cluster: clusterZoneinfo, Item: 14,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_mlock", Cluster: clusterZoneinfo, Item: 15, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_anon_pages", Cluster: clusterZoneinfo, Item: 16,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_mapped", Cluster: clusterZoneinfo, Item: 17,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_file_pages", Cluster: clusterZoneinfo, Item: 18,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_dirty", Cluster: clusterZoneinfo, Item: 19, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_writeback", Cluster: clusterZoneinfo, Item: 20,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_slab_reclaimable", Cluster: clusterZoneinfo, Item: 21,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_slab_unreclaimable", Cluster: clusterZoneinfo, Item: 22,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_page_table_pages", Cluster: clusterZoneinfo, Item: 23,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_kernel_stack", Cluster: clusterZoneinfo, Item: 24,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_unstable", Cluster: clusterZoneinfo, Item: 25,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_bounce", Cluster: clusterZoneinfo, Item: 26,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_vmscan_write", Cluster: clusterZoneinfo, Item: 27,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_vmscan_immediate_reclaim", Cluster: clusterZoneinfo, Item: 28,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_writeback_temp", Cluster: clusterZoneinfo, Item: 29,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_isolated_anon", Cluster: clusterZoneinfo, Item: 30,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_isolated_file", Cluster: clusterZoneinfo, Item: 31,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_shmem", Cluster: clusterZoneinfo, Item: 32, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_dirtied", Cluster: clusterZoneinfo, Item: 33,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_written", Cluster: clusterZoneinfo, Item: 34,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_hit", Cluster: clusterZoneinfo, Item: 35, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_miss", Cluster: clusterZoneinfo, Item: 36,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_foreign", Cluster: clusterZoneinfo, Item: 37,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_interleave", Cluster: clusterZoneinfo, Item: 38,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_local", Cluster: clusterZoneinfo, Item: 39,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.numa_other", Cluster: clusterZoneinfo, Item: 40,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_refault", Cluster: clusterZoneinfo, Item: 41,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_activate", Cluster: clusterZoneinfo, Item: 42,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_nodereclaim", Cluster: clusterZoneinfo, Item: 43,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_anon_transparent_hugepages", Cluster: clusterZoneinfo, Item: 44,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_free_cma", Cluster: clusterZoneinfo, Item: 45,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.cma", Cluster: clusterZoneinfo, Item: 46, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_swapcached", Cluster: clusterZoneinfo, Item: 47,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_shmem_hugepages", Cluster: clusterZoneinfo, Item: 48,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_shmem_pmdmapped", Cluster: clusterZoneinfo, Item: 49,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_file_hugepages", Cluster: clusterZoneinfo, Item: 50,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_file_pmdmapped", Cluster: clusterZoneinfo, Item: 51,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_kernel_misc_reclaimable", Cluster: clusterZoneinfo, Item: 52,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_foll_pin_acquired", Cluster: clusterZoneinfo, Item: 53,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_foll_pin_released", Cluster: clusterZoneinfo, Item: 54,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_refault_anon", Cluster: clusterZoneinfo, Item: 55,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_refault_file", Cluster: clusterZoneinfo, Item: 56,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_active_anon", Cluster: clusterZoneinfo, Item: 57,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_active_file", Cluster: clusterZoneinfo, Item: 58,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_restore_anon", Cluster: clusterZoneinfo, Item: 59,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.workingset_restore_file", Cluster: clusterZoneinfo, Item: 60,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zspages", Cluster: clusterZoneinfo, Item: 61,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_inactive_file", Cluster: clusterZoneinfo, Item: 62,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_active_file", Cluster: clusterZoneinfo, Item: 63,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_inactive_anon", Cluster: clusterZoneinfo, Item: 64,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_active_anon", Cluster: clusterZoneinfo, Item: 65,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_unevictable", Cluster: clusterZoneinfo, Item: 66,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
	engine.Row{Name: "hostcache.mem.zoneinfo.nr_zone_write_pending", Cluster: clusterZoneinfo, Item: 67,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZone}.Desc(),
}

var zoneProtection = engine.Row{Name: "hostcache.mem.zoneinfo.protection", Cluster: clusterZoneProt, Item: 0,
	Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomZoneProt}.Desc()

// zoneRow is one instance's values in a sample: a node's (zone "") or a
// zone's.
type zoneRow struct {
	node    int
	zone    string
	vals    []uint64 // by zoneinfoMetrics index
	has     []bool
	present uint64 // a zone's present pages: 0 is an unpopulated zone
	seen    bool
	prot    []uint64
}

// zoneinfoCollector reads /proc/zoneinfo.
type zoneinfoCollector struct {
	file            *kernel.File
	buf             []byte
	keys            map[string]int
	rows            []*zoneRow // kept from sample to sample
	pageKB          uint64
	zoneIDs, protID *cache.IDMap
	zoneNames       []string // instance names last published, and their ids
	zoneInsts       []uint32
	protNames       []string
	protInsts       []uint32
	zones, prots    *cache.Instances
	scratch         []uint64
}

// NewZoneinfoCollector names /proc/zoneinfo below env.Proc.
func NewZoneinfoCollector(env engine.Env) (engine.Collector, error) {
	path, err := hostkit.ProcFile(env, "zoneinfo")
	if err != nil {
		return nil, fmt.Errorf("zoneinfo: %w", err)
	}
	c := &zoneinfoCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles), keys: map[string]int{},
		pageKB: uint64(os.Getpagesize() / 1024), zoneIDs: env.IDMap(indomZone),
		protID: env.IDMap(indomZoneProt)}
	for i, d := range zoneinfoMetrics {
		c.keys[strings.TrimPrefix(d.Name, "hostcache.mem.zoneinfo.")] = i
	}
	// pmdalinux names two counters after a shorter form of the kernel's.
	c.keys["workingset_activate_anon"] = c.keys["workingset_active_anon"]
	c.keys["workingset_activate_file"] = c.keys["workingset_active_file"]
	return c, nil
}

func (c *zoneinfoCollector) Name() string { return "zoneinfo" }

func (c *zoneinfoCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(),
		Metrics: append(zoneinfoMetrics[:len(zoneinfoMetrics):len(zoneinfoMetrics)], zoneProtection),
		InDoms: []cache.InDomDesc{
			{ID: indomZone, Name: "zones",
				Labels: hostkit.IndomLabels(`["memory","numa_node"]`, "per zone per numa_node"),
				Derive: zoneLabels},
			{ID: indomZoneProt, Name: "zone protection", Derive: zoneLabels},
		}}
}

// Sample reads the file once and publishes every row.
func (c *zoneinfoCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		return err
	}
	for _, r := range c.rows {
		r.seen, r.present, r.prot = false, 0, r.prot[:0]
		clear(r.has)
	}
	bad := kernel.ParseZoneinfo(c.buf, (*zoneSink)(c), c.scratch)
	zones, prots := c.instances()
	if len(c.zoneNames) == 0 {
		return fmt.Errorf("%s: no zone read (%d lines malformed)", c.file.Path, bad)
	}
	b.SetInDom(indomZone, zones)
	b.SetInDom(indomZoneProt, prots)
	k, p := 0, 0
	for _, r := range c.rows {
		if !r.listed() {
			continue
		}
		for i, v := range r.vals {
			if r.has[i] {
				b.SetU64(zoneinfoMetrics[i].ID, c.zoneInsts[k], v*c.pageKB)
			}
		}
		k++
	}
	for _, r := range c.rows {
		for _, v := range r.prot {
			b.SetU64(zoneProtection.ID, c.protInsts[p], v*c.pageKB)
			p++
		}
	}
	return nil
}

// listed reports whether a row is an instance of the zone domain: a node
// with node-wide counters, or a populated zone.
func (r *zoneRow) listed() bool {
	if !r.seen {
		return false
	}
	if r.zone == "" {
		return true
	}
	return r.present > 0
}

func (r *zoneRow) name() string {
	node := "node" + strconv.Itoa(r.node)
	if r.zone == "" {
		return node
	}
	return r.zone + "::" + node
}

// row finds or adds the row of a node (zone nil) or zone.
func (c *zoneinfoCollector) row(node int, zone []byte) *zoneRow {
	for _, r := range c.rows {
		if r.node == node && r.zone == string(zone) {
			r.seen = true
			return r
		}
	}
	r := &zoneRow{node: node, zone: string(zone), vals: make([]uint64, len(zoneinfoMetrics)),
		has: make([]bool, len(zoneinfoMetrics)), seen: true}
	c.rows = append(c.rows, r)
	return r
}

// zoneSink is the collector as the parser's sink.
type zoneSink zoneinfoCollector

func (s *zoneSink) Node(node int, key []byte, v uint64) {
	c := (*zoneinfoCollector)(s)
	if i, ok := c.keys[string(key)]; ok {
		r := c.row(node, nil)
		r.vals[i], r.has[i] = v, true
	}
}

func (s *zoneSink) Zone(node int, zone, key []byte, v uint64) {
	c := (*zoneinfoCollector)(s)
	r := c.row(node, zone)
	if string(key) == "present" {
		r.present = v
	}
	if i, ok := c.keys[string(key)]; ok {
		r.vals[i], r.has[i] = v, true
	}
}

func (s *zoneSink) Protection(node int, zone []byte, reserved []uint64) {
	r := (*zoneinfoCollector)(s).row(node, zone)
	r.prot = append(r.prot[:0], reserved...)
}

// instances rebuilds the two tables when the rows listed change.
func (c *zoneinfoCollector) instances() (*cache.Instances, *cache.Instances) {
	var zones, prots []string
	for _, r := range c.rows {
		if r.listed() {
			zones = append(zones, r.name())
		}
		for k := range r.prot {
			prots = append(prots, r.name()+"::lowmem_reserved"+strconv.Itoa(k))
		}
	}
	if c.zones == nil || !slicesEqual(zones, c.zoneNames) {
		c.zoneNames, c.zoneInsts, c.zones = zones, idsOf(c.zoneIDs, zones), instancesOf(zones, c.zoneIDs)
	}
	if c.prots == nil || !slicesEqual(prots, c.protNames) {
		c.protNames, c.protInsts, c.prots = prots, idsOf(c.protID, prots), instancesOf(prots, c.protID)
	}
	return c.zones, c.prots
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func idsOf(m *cache.IDMap, names []string) []uint32 {
	ids := make([]uint32, len(names))
	for i, n := range names {
		ids[i] = m.ID(n)
	}
	return ids
}

func instancesOf(names []string, m *cache.IDMap) *cache.Instances {
	list := make([]cache.Instance, len(names))
	for i, n := range names {
		list[i] = cache.Instance{ID: m.ID(n), Name: n}
	}
	return cache.NewInstances(list)
}

// zoneLabels derives pmdalinux's labels from an instance name: zone,
// numa_node and, for protection, lowmem_reserved.
func zoneLabels(x cache.Instance) []cache.Label {
	var out []cache.Label
	for _, part := range strings.Split(x.Name, "::") {
		switch {
		case strings.HasPrefix(part, "node"):
			out = append(out, cache.Label{Name: "numa_node", Value: strings.TrimPrefix(part, "node")})
		case strings.HasPrefix(part, "lowmem_reserved"):
			reserved := strings.TrimPrefix(part, "lowmem_reserved")
			out = append(out, cache.Label{Name: "lowmem_reserved", Value: reserved})
		default:
			out = append(out, cache.StringLabel("zone", part))
		}
	}
	return out
}
