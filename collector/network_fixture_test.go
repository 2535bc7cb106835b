package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// netTestdata holds the network fixture trees (testdata/network/README.md):
// each tree has a proc/ and usually a sys/ directory.
const netTestdata = testdataDir + "/network"

// netHarness runs a collector whose /proc and /sys roots are below a
// symbolic link to one fixture tree; use() re-points the link, so the
// "kernel" moves on between samples, sysfs symbolic links included,
// without copying anything.
type netHarness struct {
	*harness
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
	n.harness = &harness{t: t, proc: env.Proc}
	n.harness.attach(f, env)
	return n
}

// use re-points the roots at testdata/network/<tree>.
func (n *netHarness) use(tree string) { n.t.Helper(); n.use0(n.t, tree) }

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
	n.t.Helper()
	in, ok := n.store.Load().InDom(indomInterface)
	if !ok {
		n.t.Fatalf("no interface domain published")
	}
	for _, x := range in.All() {
		if x.Name == name {
			return x.ID
		}
	}
	n.t.Fatalf("interface %s not in the domain", name)
	return 0
}

// instances returns the published interface domain as name -> instance.
func (n *netHarness) instances() map[string]cache.Instance {
	n.t.Helper()
	out := map[string]cache.Instance{}
	in, ok := n.store.Load().InDom(indomInterface)
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
	n.t.Helper()
	n.wantU64("network.interface."+metric, n.inst(ifc), want)
}

// wantIfaceRate checks hostcache.rate.network.interface.<metric> on ifc.
func (n *netHarness) wantIfaceRate(metric, ifc string, want float64) {
	n.t.Helper()
	n.wantFloat("rate.network.interface."+metric, n.inst(ifc), want)
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
