package collector

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// testdataDir holds the fixture /proc trees (see testdata/README.md).
const testdataDir = "../testdata"

// Sample times: t1 is exactly 2 s after t0, so every rate in the tests is
// the fixture delta divided by 2.
var (
	t0 = time.Unix(1795320600, 0)
	t1 = t0.Add(2 * time.Second)
)

// harness runs one collector against a private /proc root into which fixture
// trees are copied, so a test can move the "kernel" on between samples
// exactly as /proc changes under a running agent.
type harness struct {
	t     *testing.T
	proc  string
	c     engine.Collector
	store *cache.Front
}

func newHarness(t *testing.T, f engine.Factory, tree string) *harness {
	t.Helper()
	h := &harness{t: t, proc: t.TempDir()}
	h.use(tree)
	h.attach(f, engine.Env{Proc: h.proc})
	return h
}

// attach builds the collector from env and a store for its source alone.
func (h *harness) attach(f engine.Factory, env engine.Env) {
	h.t.Helper()
	c, err := f(env)
	if err != nil {
		h.t.Fatalf("building collector: %v", err)
	}
	schema, err := cache.NewSchema(c.Source())
	if err != nil {
		h.t.Fatalf("building schema: %v", err)
	}
	h.c, h.store = c, cache.NewFront(schema)
}

// use replaces the files of the /proc root by those of testdata/<tree>.
func (h *harness) use(tree string) {
	h.t.Helper()
	old, err := os.ReadDir(h.proc)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, e := range old {
		if err := os.Remove(filepath.Join(h.proc, e.Name())); err != nil {
			h.t.Fatal(err)
		}
	}
	src := filepath.Join(testdataDir, tree)
	files, err := os.ReadDir(src)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, e := range files {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.proc, e.Name()), data, 0o644); err != nil {
			h.t.Fatal(err)
		}
	}
}

// sample samples at now and publishes the part, as the runner does; it
// returns the collector's error. A builder error is a collector bug.
func (h *harness) sample(now time.Time) error {
	h.t.Helper()
	b := h.store.Schema().NewBuilder(0, now)
	if err := h.c.Sample(b, now); err != nil {
		return err
	}
	part, err := b.Part()
	if err != nil {
		h.t.Fatalf("building part: %v", err)
	}
	h.store.Publish(0, part)
	return nil
}

func (h *harness) mustSample(now time.Time) {
	h.t.Helper()
	if err := h.sample(now); err != nil {
		h.t.Fatalf("sample: %v", err)
	}
}

// desc finds a metric by its name below the hostcache prefix.
func (h *harness) desc(name string) *cache.Desc {
	h.t.Helper()
	d, ok := h.store.Schema().Lookup(engine.Prefix + name)
	if !ok {
		h.t.Fatalf("no metric %s%s", engine.Prefix, name)
	}
	return d
}

func (h *harness) values(name string) []cache.Value {
	h.t.Helper()
	return h.store.Load().Values(h.desc(name))
}

func (h *harness) value(name string, inst uint32) (cache.Value, bool) {
	h.t.Helper()
	for _, v := range h.values(name) {
		if v.Inst == inst {
			return v, true
		}
	}
	return cache.Value{}, false
}

func (h *harness) mustValue(name string, inst uint32) cache.Value {
	h.t.Helper()
	v, ok := h.value(name, inst)
	if !ok {
		h.t.Fatalf("%s[%d]: no value", name, inst)
	}
	return v
}

// u64 returns an integer value, failing the test if there is none.
func (h *harness) u64(name string, inst uint32) uint64 {
	h.t.Helper()
	return h.mustValue(name, inst).Bits
}

// float returns a FLOAT or DOUBLE value, failing the test if there is none.
func (h *harness) float(name string, inst uint32) float64 {
	h.t.Helper()
	v := h.mustValue(name, inst)
	if h.desc(name).Type == cache.TypeFloat {
		return float64(v.Float())
	}
	return v.Double()
}

func (h *harness) wantU64(name string, inst uint32, want uint64) {
	h.t.Helper()
	if got := h.u64(name, inst); got != want {
		h.t.Errorf("%s[%d] = %d, want %d", name, inst, got, want)
	}
}

func (h *harness) wantFloat(name string, inst uint32, want float64) {
	h.t.Helper()
	if got := h.float(name, inst); math.Abs(got-want) > 1e-9 {
		h.t.Errorf("%s[%d] = %v, want %v", name, inst, got, want)
	}
}

func (h *harness) wantAbsent(name string, inst uint32) {
	h.t.Helper()
	if v, ok := h.value(name, inst); ok {
		h.t.Errorf("%s[%d] = %+v, want no value", name, inst, v)
	}
}

// published counts the values of every metric whose name starts with prefix.
func (h *harness) published(prefix string) int {
	h.t.Helper()
	n := 0
	snap := h.store.Load()
	for i := range snap.Schema.Descs() {
		d := &snap.Schema.Descs()[i]
		if strings.HasPrefix(d.Name, engine.Prefix+prefix) {
			n += len(snap.Values(d))
		}
	}
	return n
}

// nothingPublished checks that the collector's source has no part at all.
func (h *harness) nothingPublished() {
	h.t.Helper()
	if p := h.store.Load().Part(0); p != nil {
		h.t.Errorf("a part was published: %+v", p)
	}
}
