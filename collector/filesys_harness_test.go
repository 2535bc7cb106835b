package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// Tree harness for the host-area tests (filesys, pressure, vmstat, swap),
// whose fixtures have subdirectories (pressure/, self/) that the flat
// harness.use does not copy. Trees live in testdata/host/<name>/proc; the
// private /proc root is <tmp>/proc, so <tmp> is also where the filesys
// collector resolves device links (<tmp>/dev).

const hostTestdataDir = "host"

// newHostHarness builds collector f on a copy of testdata/host/<tree>/proc,
// with env's IDDir and Filter.
func newHostHarness(t *testing.T, f engine.Factory, tree string, env engine.Env) *harness {
	t.Helper()
	root := t.TempDir()
	h := &harness{&collectortest.Harness{T: t, Proc: filepath.Join(root, "proc")}}
	if err := os.Mkdir(h.Proc, 0o755); err != nil {
		t.Fatal(err)
	}
	useHostTree(h, tree)
	env.Proc = h.Proc
	h.Attach(f, env)
	return h
}

// useHostTree replaces the whole /proc root by testdata/host/<tree>/proc.
func useHostTree(h *harness, tree string) {
	h.T.Helper()
	old, err := os.ReadDir(h.Proc)
	if err != nil {
		h.T.Fatal(err)
	}
	for _, e := range old {
		if err := os.RemoveAll(filepath.Join(h.Proc, e.Name())); err != nil {
			h.T.Fatal(err)
		}
	}
	copyHostTree(h.T, filepath.Join(testdataDir, hostTestdataDir, tree, "proc"), h.Proc)
}

// copyHostTree copies regular files and directories, skipping dot files.
func copyHostTree(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		switch {
		case e.IsDir():
			if err := os.MkdirAll(to, 0o755); err != nil {
				t.Fatal(err)
			}
			copyHostTree(t, from, to)
		case e.Type().IsRegular():
			data, err := os.ReadFile(from)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(to, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// hostInstances returns the published members of an instance domain.
func (h *harness) hostInstances(id cache.InDomID) []cache.Instance {
	h.T.Helper()
	in, ok := h.Store.Load().InDom(id)
	if !ok {
		h.T.Fatalf("indom %d unknown", id)
	}
	return in.All()
}

// hostInstanceID finds an instance's id by name, failing if it is not listed.
func (h *harness) hostInstanceID(indom cache.InDomID, name string) uint32 {
	h.T.Helper()
	for _, x := range h.hostInstances(indom) {
		if x.Name == name {
			return x.ID
		}
	}
	h.T.Fatalf("indom %d has no instance %q", indom, name)
	return 0
}

func (h *harness) hostWantString(name string, inst uint32, want string) {
	h.T.Helper()
	if got := h.MustValue(name, inst).Str; got != want {
		h.T.Errorf("%s[%d] = %q, want %q", name, inst, got, want)
	}
}

// hostWantFloat32 checks a FLOAT metric against the float32 nearest want.
func (h *harness) hostWantFloat32(name string, inst uint32, want float64) {
	h.T.Helper()
	h.WantFloat(name, inst, float64(float32(want)))
}
