package mmvfiles

import "github.com/pmdahostcache/pmdahostcache/cache"

// The MMV collector's clusters and instance domains, in ranges the host's
// collectors leave free (collector/clusters.go). They are an ABI, as the
// host's are.
const (
	clusterMMVControl = 65 // the MMV catalog's own: hostcache.mmv.control.*
	// Clusters 768-1023 are the MMV files' (hostcache.mmv.*), one a file;
	// a file's metrics keep their items, below engine.RateItemOffset.
	clusterMMVFirst = 768
	clusterMMVLast  = 1023
)

// 4096 on are the MMV files' instance domains, 64 a file, by the file's
// cluster: 4096 + 64*(cluster-clusterMMVFirst) + the file's own index of
// the domain.
const (
	indomMMVFirst   cache.InDomID = 4096
	indomMMVPerFile               = 64
)
