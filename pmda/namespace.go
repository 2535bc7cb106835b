package pmda

// Namespace answers pmcd's questions about the names below the agent's
// dynamic subtrees: the nodes its pmns file declares as `name DOMAIN:*:*`,
// whose names pmcd does not hold and asks the agent for. Names are full
// PMNS names ("hostcache.mmv.app.requests") and PMIDs are as on the wire.
//
// The server calls it from its one goroutine while it answers; an
// implementation whose names change at run time guards them itself.
//
// A dynamic subtree's root is always a known node, even with nothing
// below it: pmcd asks each dynamic root a traversal covers (`pminfo` with
// no argument covers them all), and newer pmcd fails the whole traversal
// when one answers an error.
type Namespace interface {
	// PMID is the PMID of a leaf; false for anything else (PM_ERR_NAME).
	PMID(name string) (pmid uint32, ok bool)
	// Names are the leaf names of a PMID, one or more; false or none is
	// PM_ERR_PMID.
	Names(pmid uint32) ([]string, bool)
	// Children are the immediate children of a node, last component only;
	// a leaf has none; false for an unknown name (PM_ERR_NAME).
	Children(name string) ([]Child, bool)
	// Traverse is the full name of every leaf at or below name: a leaf is
	// its own traversal, a node with no leaves has an empty one; false for
	// an unknown name (PM_ERR_NAME).
	Traverse(name string) ([]string, bool)
}

// Child is one immediate child of a namespace node.
type Child struct {
	Name string // the last component: "requests", not "hostcache.mmv.app.requests"
	Leaf bool   // a metric, not a node with children of its own
}
