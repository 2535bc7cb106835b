package collector

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
	t      *testing.T
	proc   string
	c      engine.Collector
	runner *engine.Runner
	store  *cache.Front
	now    time.Time // the last sample's time: values are read then
}

func newHarness(t *testing.T, f engine.Factory, tree string) *harness {
	t.Helper()
	h := &harness{t: t, proc: t.TempDir()}
	h.use(tree)
	h.attach(f, engine.Env{Proc: h.proc})
	return h
}

// attach builds the collector from env and the engine around it, as the
// agent does: rates and peaks come from the engine's history, read as a
// client's first fetch (over the newest sampling step).
func (h *harness) attach(f engine.Factory, env engine.Env) {
	h.t.Helper()
	c, err := f(env)
	if err != nil {
		h.t.Fatalf("building collector: %v", err)
	}
	runner := engine.NewRunner(zerolog.Nop(), []engine.Collector{c}, engine.Schedule{Default: time.Second})
	schema, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		h.t.Fatalf("building schema: %v", err)
	}
	h.c, h.runner, h.store = c, runner, cache.NewFront(schema)
	if err := runner.Attach(h.store); err != nil {
		h.t.Fatal(err)
	}
}

// use replaces the files of the /proc root by those of testdata/<tree>,
// subdirectories (sys/fs, sys/kernel/random) included.
func (h *harness) use(tree string) {
	h.t.Helper()
	replaceTree(h.t, filepath.Join(testdataDir, tree), h.proc)
}

// replaceTree empties dst and copies the regular files and directories of
// src into it, as the kernel's files change under a running agent.
func replaceTree(t *testing.T, src, dst string) {
	t.Helper()
	old, err := os.ReadDir(dst)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range old {
		if err := os.RemoveAll(filepath.Join(dst, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	err = filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil || path == src {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if strings.HasPrefix(e.Name(), ".") {
			return nil
		}
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !e.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sample samples at now and publishes the part through the engine; it
// returns the collector's error.
func (h *harness) sample(now time.Time) error {
	h.t.Helper()
	h.now = now
	return h.runner.SampleAt(now)
}

// repeated reports whether source's last part repeats the one before it
// (its text was unchanged: Builder.Again or the same values set).
func (h *harness) repeated(source string) bool {
	h.t.Helper()
	snap := h.store.Load()
	src, ok := snap.Schema.SourceIndex(source)
	if !ok || snap.Part(src) == nil {
		h.t.Fatalf("no part of source %s", source)
	}
	return snap.Part(src).Repeats()
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
	return h.store.Load().AppendValues(nil, h.desc(name), h.now)
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
			n += len(snap.AppendValues(nil, d, h.now))
		}
	}
	return n
}

// nothingPublished checks that the collector's source has no part at all.
func (h *harness) nothingPublished() {
	h.t.Helper()
	src, _ := h.store.Schema().SourceIndex(h.c.Name())
	if p := h.store.Load().Part(src); p != nil {
		h.t.Errorf("a part was published: %+v", p)
	}
}

// resets is the engine's count of counter instances the collector saw go
// backwards (hostcache.control.collector.resets).
func (h *harness) resets() uint64 {
	h.t.Helper()
	d, ok := h.store.Schema().Lookup("hostcache.control.collector.resets")
	if !ok {
		h.t.Fatal("no control.collector.resets")
	}
	vals := h.store.Load().AppendValues(nil, d, h.now)
	if len(vals) != 1 {
		h.t.Fatalf("control.collector.resets: %d values", len(vals))
	}
	return vals[0].Bits
}
