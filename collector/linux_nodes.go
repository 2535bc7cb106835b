package collector

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// linuxNodes is the NUMA nodes and their CPUs as pmdalinux lists them
// (cpu_node_setup in its proc_stat.c), read once at start: every entry
// of sys/devices/system/node named node<N>, in number order, and in each
// node's directory the entries named cpu<N>. A node with no such entry
// is listed, with no CPU. When the directory cannot be read (a kernel
// without NUMA support in sysfs) there is one node, 0, holding every CPU.
// pmdalinux's one node instance domain (60.19) is this list, for the
// per-node CPU times, the NUMA memory figures, hinv.node.online and the
// extfrag index alike; the node directory's online file plays no part.
// With no /sys root at all (sys empty: tests of /proc alone) there is no
// node.
type linuxNodes struct {
	nodes  []int         // ascending
	nodeOf map[int64]int // CPU id to node id
	all    bool          // no node directory: node 0 holds every CPU
}

func readLinuxNodes(sys string) linuxNodes {
	n := linuxNodes{nodeOf: map[int64]int{}}
	if sys == "" {
		return n
	}
	dir := filepath.Join(sys, "devices", "system", "node")
	entries, err := os.ReadDir(dir)
	if err != nil {
		n.nodes, n.all = []int{0}, true
		return n
	}
	for _, e := range entries {
		id, ok := numberAfter(e.Name(), "node")
		if !ok || slices.Contains(n.nodes, id) {
			continue
		}
		n.nodes = append(n.nodes, id)
		cpus, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, c := range cpus {
			if cpu, ok := numberAfter(c.Name(), "cpu"); ok {
				n.nodeOf[int64(cpu)] = id
			}
		}
	}
	slices.Sort(n.nodes)
	return n
}

// node is the node of CPU cpu, as pmdalinux maps it.
func (n *linuxNodes) node(cpu int64) (int, bool) {
	if n.all {
		return 0, true
	}
	node, ok := n.nodeOf[cpu]
	return node, ok
}

// numberAfter reads name as sscanf's "<prefix>%u" does: the prefix, then
// decimal digits; what follows them is ignored ("cpulist" is no CPU).
func numberAfter(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, false
	}
	v, err := strconv.Atoi(rest[:end])
	return v, err == nil
}
