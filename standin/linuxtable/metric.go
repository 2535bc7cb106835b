// Package linuxtable is pmdalinux's metric table, generated from the
// running pmcd by tools/genlinux (make linux-table): every metric pmdalinux
// serves with its PMID and descriptor. It is the one source of pmdalinux's
// descriptors: the stand-in answers with it and the collectors' twin tests
// check against it. It imports only cache, so both may import it.
package linuxtable

import "github.com/pmdahostcache/pmdahostcache/cache"

// Metric is one metric pmdalinux serves, with its descriptor.
type Metric struct {
	Name          string
	Cluster, Item uint32
	InDom         cache.InDomID // serial in domain 60, or cache.InDomNone
	Type          cache.Type
	Sem           cache.Sem
	Units         cache.Units
}
