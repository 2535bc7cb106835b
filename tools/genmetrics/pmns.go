package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// pmnsHeader heads the PMNS of hostcache's own domain.
const pmnsHeader = "/*\n * hostcache PMNS, generated from the metric schema by `make generate`.\n" +
	" * HOSTCACHE is the domain from domain.h; Install substitutes it.\n */\n"

// ownPMID is a metric's cluster and item in hostcache's own domain.
func ownPMID(d cache.Desc) (uint32, uint32) { return d.ID.Cluster(), d.ID.Item() }

// pmnsSource writes the namespace with the symbolic domain, one block per
// non-leaf node, children in name order, each metric at the cluster and
// item pmid gives it, and each of the dynamic roots as a dynamic subtree
// ("DOMAIN:*:*"), whose names pmcd asks the agent for.
func pmnsSource(s *cache.Schema, header string, pmid func(cache.Desc) (uint32, uint32), dynamic []string) string {
	children := map[string]map[string]string{} // node -> child -> PMID or ""
	for _, root := range dynamic {
		parts := strings.Split(root, ".")
		for i := 1; i < len(parts); i++ {
			node := strings.Join(parts[:i], ".")
			if children[node] == nil {
				children[node] = map[string]string{}
			}
			if _, ok := children[node][parts[i]]; !ok {
				children[node][parts[i]] = ""
			}
		}
		children[strings.Join(parts[:len(parts)-1], ".")][parts[len(parts)-1]] = help.SymbolicDomain + ":*:*"
	}
	for _, d := range namedDescs(s) {
		if s.Dynamic(d.ID) {
			continue // below a dynamic root, named by the agent
		}
		parts := strings.Split(d.Name, ".")
		for i := 1; i < len(parts); i++ {
			node := strings.Join(parts[:i], ".")
			if children[node] == nil {
				children[node] = map[string]string{}
			}
			leaf := ""
			if i == len(parts)-1 {
				c, i := pmid(d)
				leaf = fmt.Sprintf("%s:%d:%d", help.SymbolicDomain, c, i)
			}
			children[node][parts[i]] = leaf
		}
	}
	var nodes []string
	for n := range children {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	var b strings.Builder
	b.WriteString(header)
	for _, n := range nodes {
		fmt.Fprintf(&b, "\n%s {\n", n)
		var names []string
		for c := range children[n] {
			names = append(names, c)
		}
		sort.Strings(names)
		for _, c := range names {
			if pmid := children[n][c]; pmid != "" {
				fmt.Fprintf(&b, "    %-24s %s\n", c, pmid)
			} else {
				fmt.Fprintf(&b, "    %s\n", c)
			}
		}
		b.WriteString("}\n")
	}
	return b.String()
}
