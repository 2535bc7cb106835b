package collector

import (
	"slices"
	"strconv"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The CPU times of each NUMA node (the sums of its CPUs'), with the item
// pmdalinux gives each in its stat cluster plus 100 (its 62-71 are our
// utilisation figures), in cpuTimes order, and hinv.nnode.
var (
	nodeTimes = []cache.Desc{
		engine.Row{Name: "hostcache.kernel.pernode.cpu.user", Cluster: clusterStat, Item: 162,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.nice", Cluster: clusterStat, Item: 163,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.sys", Cluster: clusterStat, Item: 164,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.idle", Cluster: clusterStat, Item: 165,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.intr", Cluster: clusterStat, Item: 166,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.wait.total", Cluster: clusterStat, Item: 169,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.irq.hard", Cluster: clusterStat, Item: 171,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.irq.soft", Cluster: clusterStat, Item: 170,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.steal", Cluster: clusterStat, Item: 167,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.guest", Cluster: clusterStat, Item: 168,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.guest_nice", Cluster: clusterStat, Item: 185,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.vuser", Cluster: clusterStat, Item: 177,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
		engine.Row{Name: "hostcache.kernel.pernode.cpu.vnice", Cluster: clusterStat, Item: 186,
			Type: cache.TypeU64, Sem: cache.SemCounter, Units: cache.UnitsMSec, InDom: indomNode}.Desc(),
	}
	statNNode = engine.Row{Name: "hostcache.hinv.nnode", Cluster: clusterStat, Item: 19, Type: cache.TypeU32,
		Sem: cache.SemDiscrete, InDom: cache.InDomNone}.Desc()
)

// cpuNodes maps CPUs to their NUMA nodes as pmdalinux does (linuxNodes),
// read once: CPUs that come online later belong to no node until restart.
type cpuNodes struct {
	linuxNodes
	insts *cache.Instances
	sums  [][]uint64 // per node, per cpuTimes entry: ticks, reused
	cpus  []uint64   // per node: how many CPUs it has; 0 when unknown
}

// loadCPUNodes lists the nodes below sys as pmdalinux does; without a
// node directory, node 0 holds every CPU.
func loadCPUNodes(sys string) *cpuNodes {
	n := &cpuNodes{linuxNodes: readLinuxNodes(sys)}
	n.cpus = make([]uint64, len(n.nodes))
	for _, node := range n.nodeOf {
		i, _ := slices.BinarySearch(n.nodes, node)
		n.cpus[i]++
	}
	list := make([]cache.Instance, len(n.nodes))
	for i, id := range n.nodes {
		list[i] = cache.Instance{ID: uint32(id), Name: "node" + strconv.Itoa(id)}
	}
	n.insts = cache.NewInstances(list)
	n.sums = make([][]uint64, len(n.nodes))
	for i := range n.sums {
		n.sums[i] = make([]uint64, len(cpuTimes))
	}
	return n
}

// publish sums the CPUs' times per node.
func (n *cpuNodes) publish(b *cache.Builder, cpus []kernel.CPUStat) {
	b.SetU64(statNNode.ID, cache.InstNone, uint64(len(n.nodes)))
	b.SetInDom(indomNode, n.insts)
	if len(n.nodes) == 0 {
		return
	}
	index := func(node int) int { i, _ := slices.BinarySearch(n.nodes, node); return i }
	for i := range n.sums {
		clear(n.sums[i])
	}
	for _, cpu := range cpus {
		node, ok := n.node(cpu.ID)
		if !ok {
			continue
		}
		sums := n.sums[index(node)]
		for i, t := range cpuTimes {
			sums[i] = addTicks(sums[i], t.ticks(&cpu.Ticks))
		}
	}
	for k, node := range n.nodes {
		for i := range cpuTimes {
			b.SetU64(nodeTimes[i].ID, uint32(node), toMS(n.sums[k][i]))
		}
	}
}

// cpusOf is how many CPUs node inst has (its time's engine.Bound): 0 for
// a node it does not know, or node 0 holding every CPU for want of a node
// directory, whose steps are then not checked.
func (n *cpuNodes) cpusOf(inst uint32) uint64 {
	i, ok := slices.BinarySearch(n.nodes, int(inst))
	if !ok {
		return 0
	}
	return n.cpus[i]
}
