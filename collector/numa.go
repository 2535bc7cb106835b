package collector

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// Memory per NUMA node, from /sys/devices/system/node/nodeN/meminfo and
// numastat, with pmdalinux's names and items (its cluster 36).

// numaField is a metric and the meminfo or numastat line it reads.
type numaField struct {
	desc cache.Desc
	key  string
}

// numaMeminfo are the meminfo lines in Kbyte.
var numaMeminfo = []numaField{
	{engine.Metric("hostcache.mem.numa.util.total", clusterNUMA, 0, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "MemTotal"},
	{engine.Metric("hostcache.mem.numa.util.free", clusterNUMA, 1, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "MemFree"},
	{engine.Metric("hostcache.mem.numa.util.used", clusterNUMA, 2, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "MemUsed"},
	{engine.Metric("hostcache.mem.numa.util.active", clusterNUMA, 3, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Active"},
	{engine.Metric("hostcache.mem.numa.util.inactive", clusterNUMA, 4, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Inactive"},
	{engine.Metric("hostcache.mem.numa.util.active_anon", clusterNUMA, 5, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Active(anon)"},
	{engine.Metric("hostcache.mem.numa.util.inactive_anon", clusterNUMA, 6, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Inactive(anon)"},
	{engine.Metric("hostcache.mem.numa.util.active_file", clusterNUMA, 7, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Active(file)"},
	{engine.Metric("hostcache.mem.numa.util.inactive_file", clusterNUMA, 8, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Inactive(file)"},
	{engine.Metric("hostcache.mem.numa.util.highTotal", clusterNUMA, 9, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "HighTotal"},
	{engine.Metric("hostcache.mem.numa.util.highFree", clusterNUMA, 10, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "HighFree"},
	{engine.Metric("hostcache.mem.numa.util.lowTotal", clusterNUMA, 11, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "LowTotal"},
	{engine.Metric("hostcache.mem.numa.util.lowFree", clusterNUMA, 12, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "LowFree"},
	{engine.Metric("hostcache.mem.numa.util.unevictable", clusterNUMA, 13, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Unevictable"},
	{engine.Metric("hostcache.mem.numa.util.mlocked", clusterNUMA, 14, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Mlocked"},
	{engine.Metric("hostcache.mem.numa.util.dirty", clusterNUMA, 15, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Dirty"},
	{engine.Metric("hostcache.mem.numa.util.writeback", clusterNUMA, 16, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Writeback"},
	{engine.Metric("hostcache.mem.numa.util.filePages", clusterNUMA, 17, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "FilePages"},
	{engine.Metric("hostcache.mem.numa.util.mapped", clusterNUMA, 18, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Mapped"},
	{engine.Metric("hostcache.mem.numa.util.anonpages", clusterNUMA, 19, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "AnonPages"},
	{engine.Metric("hostcache.mem.numa.util.shmem", clusterNUMA, 20, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Shmem"},
	{engine.Metric("hostcache.mem.numa.util.kernelStack", clusterNUMA, 21, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "KernelStack"},
	{engine.Metric("hostcache.mem.numa.util.pageTables", clusterNUMA, 22, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "PageTables"},
	{engine.Metric("hostcache.mem.numa.util.NFS_Unstable", clusterNUMA, 23, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "NFS_Unstable"},
	{engine.Metric("hostcache.mem.numa.util.bounce", clusterNUMA, 24, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Bounce"},
	{engine.Metric("hostcache.mem.numa.util.writebackTmp", clusterNUMA, 25, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "WritebackTmp"},
	{engine.Metric("hostcache.mem.numa.util.slab", clusterNUMA, 26, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "Slab"},
	{engine.Metric("hostcache.mem.numa.util.slabReclaimable", clusterNUMA, 27, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "SReclaimable"},
	{engine.Metric("hostcache.mem.numa.util.slabUnreclaimable", clusterNUMA, 28, cache.TypeU64, cache.SemInstant, cache.UnitsKByte, indomNUMA), "SUnreclaim"},
}

// numaHuge are the huge page counts and their byte twins.
var numaHuge = []struct {
	desc, bytes cache.Desc
	key         string
}{
	{engine.Metric("hostcache.mem.numa.util.hugepagesTotal", clusterNUMA, 29, cache.TypeU64, cache.SemInstant, cache.UnitsCount, indomNUMA),
		engine.Metric("hostcache.mem.numa.util.hugepagesTotalBytes", clusterNUMA, 39, cache.TypeU64, cache.SemInstant, cache.UnitsByte, indomNUMA), "HugePages_Total"},
	{engine.Metric("hostcache.mem.numa.util.hugepagesFree", clusterNUMA, 30, cache.TypeU64, cache.SemInstant, cache.UnitsCount, indomNUMA),
		engine.Metric("hostcache.mem.numa.util.hugepagesFreeBytes", clusterNUMA, 40, cache.TypeU64, cache.SemInstant, cache.UnitsByte, indomNUMA), "HugePages_Free"},
	{engine.Metric("hostcache.mem.numa.util.hugepagesSurp", clusterNUMA, 31, cache.TypeU64, cache.SemInstant, cache.UnitsCount, indomNUMA),
		engine.Metric("hostcache.mem.numa.util.hugepagesSurpBytes", clusterNUMA, 41, cache.TypeU64, cache.SemInstant, cache.UnitsByte, indomNUMA), "HugePages_Surp"},
}

// numaAlloc are numastat's allocation counters.
var numaAlloc = []numaField{
	{engine.Metric("hostcache.mem.numa.alloc.hit", clusterNUMA, 32, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "numa_hit"},
	{engine.Metric("hostcache.mem.numa.alloc.miss", clusterNUMA, 33, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "numa_miss"},
	{engine.Metric("hostcache.mem.numa.alloc.foreign", clusterNUMA, 34, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "numa_foreign"},
	{engine.Metric("hostcache.mem.numa.alloc.interleave_hit", clusterNUMA, 35, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "interleave_hit"},
	{engine.Metric("hostcache.mem.numa.alloc.local_node", clusterNUMA, 36, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "local_node"},
	{engine.Metric("hostcache.mem.numa.alloc.other_node", clusterNUMA, 37, cache.TypeU64, cache.SemCounter, cache.UnitsCount, indomNUMA), "other_node"},
}

// numaOnline is 1 for every node, the nodes this collector's instances
// are: pmdalinux's hinv.node.online (its item 1 of cluster 55; ours is
// free item 42 of this cluster), which reads a node's own online file
// and finds none on Linux's sysfs, so says 1.
var numaOnline = engine.Metric("hostcache.hinv.node.online", clusterNUMA, 42, cache.TypeU32, cache.SemInstant, cache.UnitsNone, indomNUMA)

// numaFiles are one node's two files, opened once.
type numaFiles struct{ meminfo, numastat *kernel.File }

// numaCollector reads the files of every node pmdalinux lists
// (linuxNodes, read once). A node without memory (CPUs only) prints
// zeros, as the kernel has them.
type numaCollector struct {
	sys, dir  string
	list      []int // the nodes, as pmdalinux lists them
	nodes     numbered[*numaFiles]
	hugeBytes uint64         // the default huge page size, 0 when unknown
	keys      map[string]int // meminfo line -> numaMeminfo or numaHuge (len(numaMeminfo)+i)
	stat      *kernel.VMStat
	buf       []byte
	bandwidth numaBandwidth // bandwidth.conf's figures (numa_bandwidth.go)
}

// NewNUMACollector names the node directory below env.Sys; the huge page
// size comes from env.Proc/meminfo, read once.
func NewNUMACollector(env engine.Env) (engine.Collector, error) {
	if err := checkDir(env.Sys); err != nil {
		return nil, fmt.Errorf("numa: sys root: %w", err)
	}
	dir := filepath.Join(env.Sys, "devices", "system", "node")
	c := &numaCollector{sys: env.Sys, dir: dir, list: readLinuxNodes(env.Sys).nodes,
		keys: map[string]int{}, nodes: numbered[*numaFiles]{prefix: "node"}, bandwidth: newNUMABandwidth()}
	for i, f := range numaMeminfo {
		c.keys[f.key] = i
	}
	for i, f := range numaHuge {
		c.keys[f.key] = len(numaMeminfo) + i
	}
	var names []string
	for _, f := range numaAlloc {
		names = append(names, f.key)
	}
	c.stat = kernel.NewVMStat(names...)
	if data, err := kernel.ReadFile(filepath.Join(env.Proc, "meminfo")); err == nil {
		var m kernel.Meminfo
		if kernel.ParseMeminfo(data, &m) == nil {
			if kb, ok := m.Get(kernel.MemHugepagesize); ok {
				c.hugeBytes = kb * 1024
			}
		}
	}
	return c, nil
}

func (c *numaCollector) Name() string { return "numa" }

func (c *numaCollector) Source() cache.Source {
	var metrics []cache.Desc
	for _, f := range numaMeminfo {
		metrics = append(metrics, f.desc)
	}
	for _, f := range numaHuge {
		metrics = append(metrics, f.desc, f.bytes)
	}
	for _, f := range numaAlloc {
		metrics = append(metrics, f.desc)
	}
	metrics = append(metrics, numaOnline, numaMaxBandwidth)
	return cache.Source{Name: c.Name(), Metrics: metrics, InDoms: []cache.InDomDesc{
		{ID: indomNUMA, Name: "numa nodes", Labels: indomLabels(`"numa_node"`, "per numa_node"), IDLabel: "numa_node"}}}
}

// Sample reads each node's files; a node whose files cannot be read
// loses its own values only.
func (c *numaCollector) Sample(b *cache.Builder, now time.Time) error {
	nodes := c.list
	b.SetInDom(indomNUMA, c.nodes.update(nodes, c.openNode))
	c.bandwidth.publish(b, now, nodes)
	var errs []error
	for _, node := range nodes {
		b.SetU64(numaOnline.ID, uint32(node), 1)
		if err := c.sampleNode(b, uint32(node), c.nodes.get(node)); err != nil {
			errs = append(errs, err)
		}
	}
	// The node list and hinv.node.online come from no file: they are
	// published even when no node's files can be read (pmdalinux lists
	// node 0 of a host without a node directory).
	return engine.PartialOf(errs, len(nodes)+1)
}

func (c *numaCollector) sampleNode(b *cache.Builder, node uint32, f *numaFiles) error {
	var errMem, errStat error
	if c.buf, errMem = f.meminfo.Read(c.buf); errMem == nil {
		if bad := kernel.ParseNodeMeminfo(c.buf, func(name []byte, v uint64) { c.setMem(b, node, name, v) }); bad > 0 {
			errMem = fmt.Errorf("%s: %d lines not read", f.meminfo.Path, bad)
		}
	}
	if c.buf, errStat = f.numastat.Read(c.buf); errStat == nil {
		if errStat = kernel.ParseVMStat(c.buf, c.stat); errStat == nil {
			for _, a := range numaAlloc {
				if v, ok := c.stat.Get(a.key); ok {
					b.SetU64(a.desc.ID, node, v)
				}
			}
		}
	}
	return errors.Join(errMem, errStat)
}

// setMem publishes one meminfo line of a node, when it is one we export.
func (c *numaCollector) setMem(b *cache.Builder, node uint32, name []byte, v uint64) {
	i, ok := c.keys[string(name)]
	switch {
	case !ok:
	case i < len(numaMeminfo):
		b.SetU64(numaMeminfo[i].desc.ID, node, v)
	default:
		h := numaHuge[i-len(numaMeminfo)]
		b.SetU64(h.desc.ID, node, v)
		if c.hugeBytes > 0 {
			b.SetU64(h.bytes.ID, node, v*c.hugeBytes)
		}
	}
}

// openNode names a new node's two files.
func (c *numaCollector) openNode(_ int, name string) *numaFiles {
	return &numaFiles{meminfo: kernel.NewFile(c.sys, filepath.Join(c.dir, name, "meminfo")),
		numastat: kernel.NewFile(c.sys, filepath.Join(c.dir, name, "numastat"))}
}
