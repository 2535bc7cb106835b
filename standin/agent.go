package standin

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/standin/linuxtable"
	"github.com/pmdahostcache/pmdahostcache/standin/proctable"
)

// Agent is a PCP agent hostcache answers in place of: its pmcd.conf name
// (also its domain's agent label), its domain and its metric table, and
// the ids its placeholders take inside hostcache. Each agent's
// placeholders have clusters and instance domains of their own, so two
// stand-ins fit in one schema.
type Agent struct {
	Name    string
	Domain  uint32
	Version string // the PCP version whose pmcd served Table
	// DynamicRoots are the agent's dynamic namespace nodes (PROC:*:* in
	// its PMNS file): pmcd asks the agent for the names below them.
	DynamicRoots []string
	table        func() []Metric
	// keptInDom says which of the agent's instance domains keep their
	// ids in a libpcp_pmda file the stand-in goes on using.
	keptInDom func(serial cache.InDomID) bool
	// placeholderCluster and placeholderInDom are added to the agent's
	// own cluster and domain serial to make a placeholder's internal id.
	placeholderCluster uint32
	placeholderInDom   cache.InDomID
}

// Linux is pmdalinux, domain 60.
func Linux() Agent {
	return Agent{Name: "linux", Domain: 60, Version: linuxtable.Version, table: LinuxTable, keptInDom: KeptInDom,
		placeholderCluster: linuxPlaceholderCluster, placeholderInDom: linuxPlaceholderInDom}
}

// Proc is pmdaproc, domain 3. Its process domain (3.9) numbers its
// instances by PID, and none of its domains keeps ids in a file the
// stand-in reads.
func Proc() Agent {
	var roots []string
	for _, top := range []string{"proc", "hotproc"} {
		for _, node := range []string{"psinfo", "memory", "id", "io", "schedstat", "fd", "namespaces", "smaps",
			"autogroup"} {
			roots = append(roots, top+"."+node)
		}
	}
	return Agent{Name: "proc", Domain: 3, Version: proctable.Version, table: procTable, DynamicRoots: roots,
		keptInDom:          func(cache.InDomID) bool { return false },
		placeholderCluster: procPlaceholderCluster, placeholderInDom: procPlaceholderInDom}
}

// Agents lists every agent hostcache can stand in for.
func Agents() []Agent { return []Agent{Linux(), Proc()} }

// AgentNamed returns the agent pmcd.conf names name.
func AgentNamed(name string) (Agent, bool) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}

// Table returns every metric the agent serves, sorted by name.
func (a Agent) Table() []Metric { return a.table() }

// WirePMID packs one of the agent's PMIDs: domain 9 bits, cluster 12,
// item 10.
func (a Agent) WirePMID(cluster, item uint32) uint32 {
	return a.Domain<<22 | (cluster&0xfff)<<10 | item&0x3ff
}

// WireInDom packs one of the agent's instance domains: domain 9 bits,
// serial 22.
func (a Agent) WireInDom(serial cache.InDomID) uint32 {
	return a.Domain<<22 | uint32(serial)&0x3fffff
}

// inDomText names one of the agent's instance domains in a problem:
// "60.3" or "none".
func (a Agent) inDomText(in cache.InDomID) string {
	if in == cache.InDomNone {
		return "none"
	}
	return fmt.Sprintf("%d.%d", a.Domain, in)
}

// program is the agent's program name, as its users know it.
func (a Agent) program() string { return "pmda" + a.Name }

// procTable converts pmdaproc's generated table.
func procTable() []Metric {
	table := proctable.Table()
	out := make([]Metric, len(table))
	for i, m := range table {
		out[i] = Metric(m)
	}
	return out
}

// PMID is the wire PMID of one of the agent's metrics.
func (a Agent) PMID(m Metric) uint32 { return a.WirePMID(m.Cluster, m.Item) }
