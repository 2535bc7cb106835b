package mmvfiles

import "github.com/pmdahostcache/pmdahostcache/collector/collectortest"

// Sample times: t1 is exactly 2 s after t0 (collectortest).
var (
	t0 = collectortest.T0
	t1 = collectortest.T1
)
