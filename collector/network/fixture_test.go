package network

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// The fixture trees and sample times every test here uses
// (collectortest): t1 is exactly 2 s after t0.
var (
	testdataDir = collectortest.TestdataDir
	t0          = collectortest.T0
	t1          = collectortest.T1
)

// checkTwinFamily checks the metrics of descs below family against their
// pmdalinux twins (collectortest.CheckTwinFamily).
func checkTwinFamily(t *testing.T, descs []cache.Desc, family string, skip ...string) {
	t.Helper()
	collectortest.CheckTwinFamily(t, descs, family, LinuxInDoms(), skip...)
}
