package collector

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// diskTestdata holds the disk fixture trees, each with a proc/ and a sys/
// root (see testdata/disk/README.md).
var diskTestdata = filepath.Join(testdataDir, "disk")

// diskFixture runs the disk collector against a private root into which a
// fixture tree's proc/ and sys/ are copied; load swaps in another tree
// between samples, as the kernel's files change under a running agent.
type diskFixture struct {
	*harness
	root string
	base string // the directory of the trees: diskTestdata unless told
}

// newDiskFixture builds the collector with env (its Proc and Sys are set
// here) on a copy of tree.
func newDiskFixture(t *testing.T, tree string, env engine.Env) *diskFixture {
	t.Helper()
	return newDiskFixtureIn(t, diskTestdata, tree, env)
}

// newDiskFixtureIn is newDiskFixture with the trees of base.
func newDiskFixtureIn(t *testing.T, base, tree string, env engine.Env) *diskFixture {
	t.Helper()
	f := &diskFixture{root: t.TempDir(), base: base}
	f.harness = &harness{&collectortest.Harness{T: t, Proc: filepath.Join(f.root, "proc")}}
	f.load(tree)
	env.Proc, env.Sys = filepath.Join(f.root, "proc"), filepath.Join(f.root, "sys")
	f.Attach(NewDiskCollector, env)
	return f
}

// load replaces proc/ and sys/ by those of <base>/<tree>. Dot files
// (.gitkeep) are skipped.
func (f *diskFixture) load(tree string) {
	f.T.Helper()
	for _, sub := range []string{"proc", "sys"} {
		dst := filepath.Join(f.root, sub)
		if err := os.RemoveAll(dst); err != nil {
			f.T.Fatal(err)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			f.T.Fatal(err)
		}
		src := filepath.Join(f.base, tree, sub)
		if _, err := os.Stat(src); os.IsNotExist(err) {
			continue
		}
		if err := diskCopyTree(src, dst); err != nil {
			f.T.Fatal(err)
		}
	}
}

func diskCopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		switch {
		case strings.HasPrefix(d.Name(), ".") && rel != ".":
			return nil
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// indom returns the published members of an instance domain.
func (f *diskFixture) indom(id cache.InDomID) *cache.Instances {
	f.T.Helper()
	in, _ := f.Store.Load().InDom(id)
	return in
}

// wantMembers checks an instance domain's names and ids, in order.
func (f *diskFixture) wantMembers(id cache.InDomID, want map[string]uint32, order ...string) {
	f.T.Helper()
	var got []string
	for _, x := range f.indom(id).All() {
		got = append(got, x.Name)
		if w, ok := want[x.Name]; !ok || w != x.ID {
			f.T.Errorf("indom %d: %s has id %d, want %d (listed: %v)", id, x.Name, x.ID, w, ok)
		}
	}
	if !reflect.DeepEqual(got, order) {
		f.T.Errorf("indom %d lists %q, want %q", id, got, order)
	}
}

// labelsOf returns the labels of a named instance.
func (f *diskFixture) labelsOf(id cache.InDomID, name string) []cache.Label {
	f.T.Helper()
	for _, x := range f.indom(id).All() {
		if x.Name == name {
			return x.Labels
		}
	}
	f.T.Fatalf("indom %d has no %s", id, name)
	return nil
}
