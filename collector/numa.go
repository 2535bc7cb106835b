package collector

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
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
	{engine.Row{Name: "hostcache.mem.numa.util.total", Cluster: clusterNUMA, Item: 0, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "MemTotal"},
	{engine.Row{Name: "hostcache.mem.numa.util.free", Cluster: clusterNUMA, Item: 1, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "MemFree"},
	{engine.Row{Name: "hostcache.mem.numa.util.used", Cluster: clusterNUMA, Item: 2, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "MemUsed"},
	{engine.Row{Name: "hostcache.mem.numa.util.active", Cluster: clusterNUMA, Item: 3, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Active"},
	{engine.Row{Name: "hostcache.mem.numa.util.inactive", Cluster: clusterNUMA, Item: 4, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Inactive"},
	{engine.Row{Name: "hostcache.mem.numa.util.active_anon", Cluster: clusterNUMA, Item: 5, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Active(anon)"},
	{engine.Row{Name: "hostcache.mem.numa.util.inactive_anon", Cluster: clusterNUMA, Item: 6,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "Inactive(anon)"},
	{engine.Row{Name: "hostcache.mem.numa.util.active_file", Cluster: clusterNUMA, Item: 7, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Active(file)"},
	{engine.Row{Name: "hostcache.mem.numa.util.inactive_file", Cluster: clusterNUMA, Item: 8,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "Inactive(file)"},
	{engine.Row{Name: "hostcache.mem.numa.util.highTotal", Cluster: clusterNUMA, Item: 9, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "HighTotal"},
	{engine.Row{Name: "hostcache.mem.numa.util.highFree", Cluster: clusterNUMA, Item: 10, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "HighFree"},
	{engine.Row{Name: "hostcache.mem.numa.util.lowTotal", Cluster: clusterNUMA, Item: 11, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "LowTotal"},
	{engine.Row{Name: "hostcache.mem.numa.util.lowFree", Cluster: clusterNUMA, Item: 12, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "LowFree"},
	{engine.Row{Name: "hostcache.mem.numa.util.unevictable", Cluster: clusterNUMA, Item: 13,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "Unevictable"},
	{engine.Row{Name: "hostcache.mem.numa.util.mlocked", Cluster: clusterNUMA, Item: 14, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Mlocked"},
	{engine.Row{Name: "hostcache.mem.numa.util.dirty", Cluster: clusterNUMA, Item: 15, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Dirty"},
	{engine.Row{Name: "hostcache.mem.numa.util.writeback", Cluster: clusterNUMA, Item: 16, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Writeback"},
	{engine.Row{Name: "hostcache.mem.numa.util.filePages", Cluster: clusterNUMA, Item: 17, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "FilePages"},
	{engine.Row{Name: "hostcache.mem.numa.util.mapped", Cluster: clusterNUMA, Item: 18, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Mapped"},
	{engine.Row{Name: "hostcache.mem.numa.util.anonpages", Cluster: clusterNUMA, Item: 19, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "AnonPages"},
	{engine.Row{Name: "hostcache.mem.numa.util.shmem", Cluster: clusterNUMA, Item: 20, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Shmem"},
	{engine.Row{Name: "hostcache.mem.numa.util.kernelStack", Cluster: clusterNUMA, Item: 21,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "KernelStack"},
	{engine.Row{Name: "hostcache.mem.numa.util.pageTables", Cluster: clusterNUMA, Item: 22, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "PageTables"},
	{engine.Row{Name: "hostcache.mem.numa.util.NFS_Unstable", Cluster: clusterNUMA, Item: 23,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "NFS_Unstable"},
	{engine.Row{Name: "hostcache.mem.numa.util.bounce", Cluster: clusterNUMA, Item: 24, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Bounce"},
	{engine.Row{Name: "hostcache.mem.numa.util.writebackTmp", Cluster: clusterNUMA, Item: 25,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "WritebackTmp"},
	{engine.Row{Name: "hostcache.mem.numa.util.slab", Cluster: clusterNUMA, Item: 26, Type: cache.TypeU64,
		Sem: cache.SemInstant, Units: cache.UnitsKByte, InDom: indomNUMA}.Desc(), "Slab"},
	{engine.Row{Name: "hostcache.mem.numa.util.slabReclaimable", Cluster: clusterNUMA, Item: 27,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "SReclaimable"},
	{engine.Row{Name: "hostcache.mem.numa.util.slabUnreclaimable", Cluster: clusterNUMA, Item: 28,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsKByte,
		InDom: indomNUMA}.Desc(), "SUnreclaim"},
}

// numaHuge are the huge page counts and their byte twins.
var numaHuge = []struct {
	desc, bytes cache.Desc
	key         string
}{
	{engine.Row{Name: "hostcache.mem.numa.util.hugepagesTotal", Cluster: clusterNUMA, Item: 29,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(),
		engine.Row{Name: "hostcache.mem.numa.util.hugepagesTotalBytes", Cluster: clusterNUMA, Item: 39,
			Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
			InDom: indomNUMA}.Desc(), "HugePages_Total"},
	{engine.Row{Name: "hostcache.mem.numa.util.hugepagesFree", Cluster: clusterNUMA, Item: 30,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(),
		engine.Row{Name: "hostcache.mem.numa.util.hugepagesFreeBytes", Cluster: clusterNUMA, Item: 40,
			Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
			InDom: indomNUMA}.Desc(), "HugePages_Free"},
	{engine.Row{Name: "hostcache.mem.numa.util.hugepagesSurp", Cluster: clusterNUMA, Item: 31,
		Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(),
		engine.Row{Name: "hostcache.mem.numa.util.hugepagesSurpBytes", Cluster: clusterNUMA, Item: 41,
			Type: cache.TypeU64, Sem: cache.SemInstant, Units: cache.UnitsByte,
			InDom: indomNUMA}.Desc(), "HugePages_Surp"},
}

// numaAlloc are numastat's allocation counters.
var numaAlloc = []numaField{
	{engine.Row{Name: "hostcache.mem.numa.alloc.hit", Cluster: clusterNUMA, Item: 32, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(), "numa_hit"},
	{engine.Row{Name: "hostcache.mem.numa.alloc.miss", Cluster: clusterNUMA, Item: 33, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(), "numa_miss"},
	{engine.Row{Name: "hostcache.mem.numa.alloc.foreign", Cluster: clusterNUMA, Item: 34, Type: cache.TypeU64,
		Sem: cache.SemCounter, Units: cache.UnitsCount, InDom: indomNUMA}.Desc(), "numa_foreign"},
	{engine.Row{Name: "hostcache.mem.numa.alloc.interleave_hit", Cluster: clusterNUMA, Item: 35,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomNUMA}.Desc(), "interleave_hit"},
	{engine.Row{Name: "hostcache.mem.numa.alloc.local_node", Cluster: clusterNUMA, Item: 36,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomNUMA}.Desc(), "local_node"},
	{engine.Row{Name: "hostcache.mem.numa.alloc.other_node", Cluster: clusterNUMA, Item: 37,
		Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsCount,
		InDom: indomNUMA}.Desc(), "other_node"},
}

// numaOnline is 1 for every node, the nodes this collector's instances
// are: pmdalinux's hinv.node.online (its item 1 of cluster 55; ours is
// free item 42 of this cluster), which reads a node's own online file
// and finds none on Linux's sysfs, so says 1.
var numaOnline = engine.Row{Name: "hostcache.hinv.node.online", Cluster: clusterNUMA, Item: 42,
	Type: cache.TypeU32, Sem: cache.SemInstant, InDom: indomNUMA}.Desc()

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
	if err := hostkit.CheckDir(env.Sys); err != nil {
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
		{ID: indomNUMA, Name: "numa nodes", Labels: hostkit.IndomLabels(`"numa_node"`, "per numa_node"),
			IDLabel: "numa_node"}}}
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
		if bad := kernel.ParseNodeMeminfo(c.buf,
			func(name []byte, v uint64) { c.setMem(b, node, name, v) }); bad > 0 {
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
