package pmda

import (
	"slices"
	"strings"
	"sync"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// schemaNamespace answers the dynamic subtrees (roots) from the front's
// current schema, through the server's numbering: the names below a root
// are the schema's metrics so named on the wire, and change when a
// dynamic source's do (cache.Front.Replace). The sorted names are made
// once per schema.
type schemaNamespace struct {
	front  *cache.Front
	ids    Numbering
	roots  []string
	mu     sync.Mutex
	seen   *cache.Schema
	names  []string                  // the wire names below the roots, sorted
	byName map[string]cache.MetricID // the metric each of names is
}

// WireNamer is a Numbering that answers some metrics under other names
// than the schema's: a stand-in's twins, under the names of the agent
// stood in for.
type WireNamer interface {
	WireName(name string) string
}

// NewSchemaNamespace answers the names below roots from front's schema.
func NewSchemaNamespace(front *cache.Front, ids Numbering, roots []string) Namespace {
	return &schemaNamespace{front: front, ids: ids, roots: roots}
}

// current returns the schema, its wire names below the roots, and the
// metric each is.
func (n *schemaNamespace) current() (*cache.Schema, []string, map[string]cache.MetricID) {
	schema := n.front.Schema()
	n.mu.Lock()
	defer n.mu.Unlock()
	if schema != n.seen {
		// A slice or map handed out earlier keeps its names.
		n.names, n.byName = nil, map[string]cache.MetricID{}
		for _, d := range schema.Descs() {
			if d.Threads {
				continue // a threads view has no name of its own
			}
			if name := n.wireName(d.Name); n.rootOf(name) != "" {
				n.names = append(n.names, name)
				n.byName[name] = d.ID
			}
		}
		slices.Sort(n.names)
		n.seen = schema
	}
	return schema, n.names, n.byName
}

// wireName is the name a schema metric answers under.
func (n *schemaNamespace) wireName(name string) string {
	if wn, ok := n.ids.(WireNamer); ok {
		return wn.WireName(name)
	}
	return name
}

// rootOf is the root name lies at or below, "" for none.
func (n *schemaNamespace) rootOf(name string) string {
	for _, r := range n.roots {
		if name == r || strings.HasPrefix(name, r+".") {
			return r
		}
	}
	return ""
}

func (n *schemaNamespace) PMID(name string) (uint32, bool) {
	if n.rootOf(name) == "" {
		return 0, false
	}
	_, _, byName := n.current()
	id, ok := byName[name]
	if !ok {
		return 0, false
	}
	return n.ids.PMID(id), true
}

func (n *schemaNamespace) Names(pmid uint32) ([]string, bool) {
	id, ok := n.ids.Metric(pmid)
	if !ok {
		return nil, false
	}
	schema, _, _ := n.current()
	d, ok := schema.Desc(id)
	name := n.wireName(d.Name)
	if !ok || n.rootOf(name) == "" {
		return nil, false
	}
	return []string{name}, true
}

// below is the sorted names at or below node.
func below(names []string, node string) []string {
	lo, _ := slices.BinarySearch(names, node)
	hi := lo
	for hi < len(names) && (names[hi] == node || strings.HasPrefix(names[hi], node+".")) {
		hi++
	}
	return names[lo:hi]
}

// subtree is the sorted names at or below name, and whether name is a
// node or leaf of the dynamic subtrees: a root always is, even empty.
func (n *schemaNamespace) subtree(name string) ([]string, bool) {
	if n.rootOf(name) == "" {
		return nil, false
	}
	_, names, _ := n.current()
	under := below(names, name)
	return under, len(under) > 0 || slices.Contains(n.roots, name)
}

func (n *schemaNamespace) Children(name string) ([]Child, bool) {
	under, ok := n.subtree(name)
	if !ok {
		return nil, false
	}
	var out []Child
	for _, full := range under {
		if full == name {
			return nil, true // a leaf has no children
		}
		rest := full[len(name)+1:]
		first, _, more := strings.Cut(rest, ".")
		if len(out) > 0 && out[len(out)-1].Name == first {
			continue
		}
		out = append(out, Child{Name: first, Leaf: !more})
	}
	return out, true
}

func (n *schemaNamespace) Traverse(name string) ([]string, bool) {
	under, ok := n.subtree(name)
	return slices.Clone(under), ok
}
