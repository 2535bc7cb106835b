package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// pmnsSource writes the namespace with the symbolic domain, one block per
// non-leaf node, children in name order.
func pmnsSource(s *cache.Schema) string {
	children := map[string]map[string]string{} // node -> child -> PMID or ""
	for _, d := range s.Descs() {
		parts := strings.Split(d.Name, ".")
		for i := 1; i < len(parts); i++ {
			node := strings.Join(parts[:i], ".")
			if children[node] == nil {
				children[node] = map[string]string{}
			}
			leaf := ""
			if i == len(parts)-1 {
				leaf = fmt.Sprintf("%s:%d:%d", help.SymbolicDomain, d.ID.Cluster(), d.ID.Item())
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
	b.WriteString("/*\n * hostcache PMNS, generated from the metric schema by `make generate`.\n" +
		" * HOSTCACHE is the domain from domain.h; Install substitutes it.\n */\n")
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
