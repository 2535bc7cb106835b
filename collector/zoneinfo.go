package collector

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
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
	engine.Metric("hostcache.mem.zoneinfo.free", clusterZoneinfo, 0, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.min", clusterZoneinfo, 1, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.low", clusterZoneinfo, 2, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.high", clusterZoneinfo, 3, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.scanned", clusterZoneinfo, 4, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.spanned", clusterZoneinfo, 5, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.present", clusterZoneinfo, 6, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.managed", clusterZoneinfo, 7, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_free_pages", clusterZoneinfo, 8, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_alloc_batch", clusterZoneinfo, 9, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_inactive_anon", clusterZoneinfo, 10, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_active_anon", clusterZoneinfo, 11, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_inactive_file", clusterZoneinfo, 12, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_active_file", clusterZoneinfo, 13, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_unevictable", clusterZoneinfo, 14, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_mlock", clusterZoneinfo, 15, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_anon_pages", clusterZoneinfo, 16, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_mapped", clusterZoneinfo, 17, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_file_pages", clusterZoneinfo, 18, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_dirty", clusterZoneinfo, 19, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_writeback", clusterZoneinfo, 20, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_slab_reclaimable", clusterZoneinfo, 21, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_slab_unreclaimable", clusterZoneinfo, 22, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_page_table_pages", clusterZoneinfo, 23, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_kernel_stack", clusterZoneinfo, 24, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_unstable", clusterZoneinfo, 25, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_bounce", clusterZoneinfo, 26, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_vmscan_write", clusterZoneinfo, 27, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_vmscan_immediate_reclaim", clusterZoneinfo, 28, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_writeback_temp", clusterZoneinfo, 29, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_isolated_anon", clusterZoneinfo, 30, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_isolated_file", clusterZoneinfo, 31, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_shmem", clusterZoneinfo, 32, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_dirtied", clusterZoneinfo, 33, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_written", clusterZoneinfo, 34, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_hit", clusterZoneinfo, 35, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_miss", clusterZoneinfo, 36, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_foreign", clusterZoneinfo, 37, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_interleave", clusterZoneinfo, 38, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_local", clusterZoneinfo, 39, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.numa_other", clusterZoneinfo, 40, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_refault", clusterZoneinfo, 41, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_activate", clusterZoneinfo, 42, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_nodereclaim", clusterZoneinfo, 43, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_anon_transparent_hugepages", clusterZoneinfo, 44, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_free_cma", clusterZoneinfo, 45, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.cma", clusterZoneinfo, 46, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_swapcached", clusterZoneinfo, 47, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_shmem_hugepages", clusterZoneinfo, 48, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_shmem_pmdmapped", clusterZoneinfo, 49, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_file_hugepages", clusterZoneinfo, 50, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_file_pmdmapped", clusterZoneinfo, 51, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_kernel_misc_reclaimable", clusterZoneinfo, 52, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_foll_pin_acquired", clusterZoneinfo, 53, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_foll_pin_released", clusterZoneinfo, 54, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_refault_anon", clusterZoneinfo, 55, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_refault_file", clusterZoneinfo, 56, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_active_anon", clusterZoneinfo, 57, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_active_file", clusterZoneinfo, 58, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_restore_anon", clusterZoneinfo, 59, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.workingset_restore_file", clusterZoneinfo, 60, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zspages", clusterZoneinfo, 61, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_inactive_file", clusterZoneinfo, 62, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_active_file", clusterZoneinfo, 63, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_inactive_anon", clusterZoneinfo, 64, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_active_anon", clusterZoneinfo, 65, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_unevictable", clusterZoneinfo, 66, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
	engine.Metric("hostcache.mem.zoneinfo.nr_zone_write_pending", clusterZoneinfo, 67, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZone),
}

var zoneProtection = engine.Metric("hostcache.mem.zoneinfo.protection", clusterZoneProt, 0, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomZoneProt)

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
	path, err := procFile(env, "zoneinfo")
	if err != nil {
		return nil, fmt.Errorf("zoneinfo: %w", err)
	}
	c := &zoneinfoCollector{file: kernel.NewFileKept(env.Proc, path, env.KeepFiles), keys: map[string]int{},
		pageKB: uint64(os.Getpagesize() / 1024), zoneIDs: env.IDMap(indomZone), protID: env.IDMap(indomZoneProt)}
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
	return cache.Source{Name: c.Name(), Metrics: append(zoneinfoMetrics[:len(zoneinfoMetrics):len(zoneinfoMetrics)], zoneProtection),
		InDoms: []cache.InDomDesc{
			{ID: indomZone, Name: "zones", Labels: indomLabels(`["memory","numa_node"]`, "per zone per numa_node"), Derive: zoneLabels},
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
			out = append(out, cache.Label{Name: "lowmem_reserved", Value: strings.TrimPrefix(part, "lowmem_reserved")})
		default:
			out = append(out, cache.StringLabel("zone", part))
		}
	}
	return out
}
