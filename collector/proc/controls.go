package proc

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// clusterControl is pmdaproc's cluster 10 plus 100: its controls.
const clusterControl = 110

// controls twin pmdaproc's proc.control.*: whether a client sees every
// thread as an instance of the process domain, by default and for itself,
// and the cgroup a client stored. Their values are the asking client's
// settings (cache.ProcControls); pmcd's clients store them, each in its
// own context, and the wire layer checks the stores (pmda).
var controls = [3]cache.Desc{
	control(engine.Row{Name: "hostcache.proc.control.all.threads", Cluster: clusterControl, Item: 1,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}, cache.ControlAllThreads),
	control(engine.Row{Name: "hostcache.proc.control.perclient.threads", Cluster: clusterControl, Item: 2,
		Type: cache.TypeU32, Sem: cache.SemInstant, InDom: cache.InDomNone}, cache.ControlClientThreads),
	control(engine.Row{Name: "hostcache.proc.control.perclient.cgroups", Cluster: clusterControl, Item: 3,
		Type: cache.TypeString, Sem: cache.SemInstant, InDom: cache.InDomNone}, cache.ControlClientCgroups),
}

func control(r engine.Row, kind cache.ProcControl) cache.Desc {
	d := r.Desc()
	d.Control = kind
	return d
}
