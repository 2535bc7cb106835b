// Package proctable is pmdaproc's metric table, generated from the running
// pmcd by tools/genlinux (make proc-table): every metric pmdaproc serves
// with its PMID and descriptor. It is the one source of pmdaproc's
// descriptors: the process collector's twin tests check against it. It
// imports only cache.
package proctable

import "github.com/pmdahostcache/pmdahostcache/cache"

// Metric is one metric pmdaproc serves, with its descriptor.
type Metric struct {
	Name          string
	Cluster, Item uint32
	InDom         cache.InDomID // serial in domain 3, or cache.InDomNone
	Type          cache.Type
	Sem           cache.Sem
	Units         cache.Units
}
