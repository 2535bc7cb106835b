package collector

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/hostkit"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The external fragmentation of each node's Normal zone, from debugfs's
// extfrag/unusable_index, with pmdalinux's item (its cluster 35). The
// kernel prints, per order, the share of the zone's free memory that
// cannot satisfy an allocation of that order; pmdalinux's value, and
// ours, is the sum of those shares over the orders, from 0 (every free
// page in large blocks) up to the number of orders.
var extfragUnusable = engine.Row{Name: "hostcache.sysfs.kernel.debug.extfrag_unusable",
	Cluster: clusterExtfrag, Item: 1, Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: indomExtfrag}.Desc()

// extfragMaxOrders is how many orders pmdalinux sums at most.
const extfragMaxOrders = 16

// extfragNode is one node's Normal zone row.
type extfragNode struct {
	node int
	sum  float32
}

// extfragCollector reads the index. The file is root's only, and debugfs
// is often not mounted: either way there is nothing to publish and
// nothing to report.
type extfragCollector struct {
	file  *kernel.File
	buf   []byte
	rows  []extfragNode
	nodes []int
	list  numbered[struct{}]
	memo  kernel.Memo // the text of the last sample built
}

// NewExtfragCollector names the file below env.Sys and opens it at once,
// while the agent may still run as root: the kept descriptor goes on
// reading after privileges are dropped.
func NewExtfragCollector(env engine.Env) (engine.Collector, error) {
	if err := hostkit.CheckDir(env.Sys); err != nil {
		return nil, fmt.Errorf("extfrag: sys root: %w", err)
	}
	path := filepath.Join(env.Sys, "kernel", "debug", "extfrag", "unusable_index")
	c := &extfragCollector{file: kernel.NewFileKept(env.Sys, path,
		env.KeepFiles), list: numbered[struct{}]{prefix: "node"}}
	c.buf, _ = c.file.Read(c.buf) // a file that cannot be read now is tried each sample
	return c, nil
}

func (c *extfragCollector) Name() string { return "extfrag" }

func (c *extfragCollector) Source() cache.Source {
	return cache.Source{Name: c.Name(), Metrics: []cache.Desc{extfragUnusable}, InDoms: []cache.InDomDesc{
		{ID: indomExtfrag, Name: "extfrag nodes", Labels: hostkit.IndomLabels(`"numa_node"`, "per numa_node"),
			IDLabel: "numa_node"}}}
}

// Sample reads the index once. Absent or forbidden, it gives an empty
// domain and no error.
func (c *extfragCollector) Sample(b *cache.Builder, _ time.Time) error {
	var err error
	if c.buf, err = c.file.Read(c.buf); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			c.buf = c.buf[:0]
		} else {
			return err
		}
	}
	if c.memo.Same(c.buf) && b.Again() {
		return nil // the same text: the same values as last time
	}
	var bad int
	c.rows, bad = parseExtfrag(c.buf, c.rows[:0])
	c.nodes = c.nodes[:0]
	for _, r := range c.rows {
		c.nodes = append(c.nodes, r.node)
	}
	b.SetInDom(indomExtfrag, c.list.update(c.nodes, func(int, string) struct{} { return struct{}{} }))
	for _, r := range c.rows {
		b.SetDouble(extfragUnusable.ID, uint32(r.node), float64(r.sum))
	}
	if bad > 0 {
		// The nodes read are published; only the damaged lines' are not,
		// as pmdalinux skips a line it cannot read.
		return engine.Partial(fmt.Errorf("%s: %d lines not read", c.file.Path, bad))
	}
	c.memo.Keep(c.buf)
	return nil
}

// parseExtfrag appends the Normal zone of each node, from lines such as
// "Node 0, zone   Normal 0.000 0.012 0.340 ...", and counts the lines it
// cannot read. Other zones are skipped, as pmdalinux skips them; a node
// listed twice keeps its first row. The shares are summed in single
// precision, as pmdalinux sums them.
func parseExtfrag(data []byte, rows []extfragNode) ([]extfragNode, int) {
	bad := 0
	for line := range bytes.Lines(data) {
		f := bytes.Fields(line)
		if len(f) == 0 {
			continue
		}
		node, ok := extfragNodeOf(f)
		sum, n := extfragSum(f)
		switch {
		case !ok || n == 0:
			bad++
		case string(f[3]) == "Normal" && !extfragHas(rows, node):
			rows = append(rows, extfragNode{node, sum})
		}
	}
	return rows, bad
}

// extfragSum adds up a row's shares, up to the first that is not a
// number (pmdalinux's scanf stops there too), and counts them.
func extfragSum(f [][]byte) (float32, int) {
	var sum float32
	n := 0
	for _, v := range f[min(len(f), 4):min(len(f), 4+extfragMaxOrders)] {
		share, err := strconv.ParseFloat(string(v), 32)
		if err != nil {
			break
		}
		sum += float32(share)
		n++
	}
	return sum, n
}

// extfragNodeOf reads "Node N," "zone" at the head of a row.
func extfragNodeOf(f [][]byte) (int, bool) {
	if len(f) < 4 || string(f[0]) != "Node" || string(f[2]) != "zone" {
		return 0, false
	}
	num, ok := bytes.CutSuffix(f[1], []byte(","))
	n, err := strconv.Atoi(string(num))
	return n, ok && err == nil && n >= 0
}

func extfragHas(rows []extfragNode, node int) bool {
	for _, r := range rows {
		if r.node == node {
			return true
		}
	}
	return false
}
