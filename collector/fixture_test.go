package collector

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// testdataDir holds the fixture /proc trees (see testdata/README.md).
const testdataDir = "../testdata"

// Sample times: t1 is exactly 2 s after t0, so every rate in the tests is
// the fixture delta divided by 2.
var (
	t0 = collectortest.T0
	t1 = collectortest.T1
)

// harness runs one collector in the engine on a copy of fixture trees
// (collectortest.Harness), with the host tests' own checks as methods.
type harness struct{ *collectortest.Harness }

func newHarness(t *testing.T, f engine.Factory, tree string) *harness {
	t.Helper()
	return &harness{collectortest.NewHarness(t, f, tree)}
}

// replaceTree empties dst and copies src into it (collectortest.ReplaceTree).
func replaceTree(t *testing.T, src, dst string) {
	t.Helper()
	collectortest.ReplaceTree(t, src, dst)
}
