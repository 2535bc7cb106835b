package network

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// netTestdata holds the network fixture trees (testdata/network/README.md):
// each tree has a proc/ and usually a sys/ directory.
var netTestdata = testdataDir + "/network"

// netHarness runs a collector whose /proc and /sys roots are below a
// symbolic link to one fixture tree; use() re-points the link, so the
// "kernel" moves on between samples, sysfs symbolic links included,
// without copying anything.
type netHarness struct {
	*collectortest.Harness
	link string
	env  engine.Env
}

// newNetHarness builds the collector on tree. env supplies the filter and
// id directory; its roots are replaced by the fixture's.
func newNetHarness(t *testing.T, f engine.Factory, tree string, env engine.Env) *netHarness {
	t.Helper()
	dir := t.TempDir()
	n := &netHarness{link: filepath.Join(dir, "root")}
	n.use0(t, tree)
	env.Proc, env.Sys = filepath.Join(n.link, "proc"), filepath.Join(n.link, "sys")
	n.env = env
	n.Harness = &collectortest.Harness{T: t, Proc: env.Proc}
	n.Harness.Attach(f, env)
	return n
}

// Use re-points the roots at testdata/network/<tree>. It stands in for
// collectortest.Harness.Use, which would copy a tree into the roots: here
// they are links into testdata itself.
func (n *netHarness) Use(tree string) { n.T.Helper(); n.use0(n.T, tree) }

func (n *netHarness) use0(t *testing.T, tree string) {
	t.Helper()
	target, err := filepath.Abs(filepath.Join(netTestdata, tree))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("fixture tree: %v", err)
	}
	tmp := n.link + ".new"
	if err := os.Symlink(target, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, n.link); err != nil {
		t.Fatal(err)
	}
}

// inst returns the id of a published interface, failing if it is absent.
func (n *netHarness) inst(name string) uint32 {
	n.T.Helper()
	in, ok := n.Store.Load().InDom(indomInterface)
	if !ok {
		n.T.Fatalf("no interface domain published")
	}
	for _, x := range in.All() {
		if x.Name == name {
			return x.ID
		}
	}
	n.T.Fatalf("interface %s not in the domain", name)
	return 0
}

// instances returns the published interface domain as name -> instance.
func (n *netHarness) instances() map[string]cache.Instance {
	n.T.Helper()
	out := map[string]cache.Instance{}
	in, ok := n.Store.Load().InDom(indomInterface)
	if !ok {
		return out
	}
	for _, x := range in.All() {
		out[x.Name] = x
	}
	return out
}

// wantIface checks an integer value of network.interface.<name> on ifc.
func (n *netHarness) wantIface(metric, ifc string, want uint64) {
	n.T.Helper()
	n.WantU64("network.interface."+metric, n.inst(ifc), want)
}

// wantIfaceRate checks hostcache.rate.network.interface.<metric> on ifc.
func (n *netHarness) wantIfaceRate(metric, ifc string, want float64) {
	n.T.Helper()
	n.WantFloat("rate.network.interface."+metric, n.inst(ifc), want)
}

// readFixture reads a file of testdata/network.
func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(netTestdata, path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
