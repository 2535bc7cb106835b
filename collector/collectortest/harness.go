// Package collectortest runs a collector in the engine against fixture
// /proc and /sys trees (testdata/ at the top of the repository), for the
// tests of every collector package.
package collectortest

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// TestdataDir holds the fixture trees (see testdata/README.md), found from
// this file so that tests of any package below collector reach it.
var TestdataDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}()

// Sample times: T1 is exactly 2 s after T0, so every rate in the tests is
// the fixture delta divided by 2.
var (
	T0 = time.Unix(1795320600, 0)
	T1 = T0.Add(2 * time.Second)
)

// Harness runs one collector against a private /proc root into which fixture
// trees are copied, so a test can move the "kernel" on between samples
// exactly as /proc changes under a running agent.
type Harness struct {
	T      *testing.T
	Proc   string
	C      engine.Collector
	Runner *engine.Runner
	Store  *cache.Front
	Now    time.Time // the last sample's time: values are read then
}

// NewHarness runs the collector f makes on a copy of testdata/<tree>.
func NewHarness(t *testing.T, f engine.Factory, tree string) *Harness {
	t.Helper()
	h := &Harness{T: t, Proc: t.TempDir()}
	h.Use(tree)
	h.Attach(f, engine.Env{Proc: h.Proc})
	return h
}

// Attach builds the collector from env and the engine around it, as the
// agent does: rates and peaks come from the engine's history, read as a
// client's first fetch (over the newest sampling step).
func (h *Harness) Attach(f engine.Factory, env engine.Env) {
	h.T.Helper()
	c, err := f(env)
	if err != nil {
		h.T.Fatalf("building collector: %v", err)
	}
	runner := engine.NewRunner(zerolog.Nop(), []engine.Collector{c}, engine.Schedule{Default: time.Second})
	schema, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		h.T.Fatalf("building schema: %v", err)
	}
	h.C, h.Runner, h.Store = c, runner, cache.NewFront(schema)
	if err := runner.Attach(h.Store); err != nil {
		h.T.Fatal(err)
	}
}

// Use replaces the files of the /proc root by those of testdata/<tree>,
// subdirectories (sys/fs, sys/kernel/random) included.
func (h *Harness) Use(tree string) {
	h.T.Helper()
	ReplaceTree(h.T, filepath.Join(TestdataDir, tree), h.Proc)
}

// ReplaceTree empties dst and copies the regular files and directories of
// src into it, as the kernel's files change under a running agent.
func ReplaceTree(t *testing.T, src, dst string) {
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

// Sample samples at now and publishes the part through the engine; it
// returns the collector's error.
func (h *Harness) Sample(now time.Time) error {
	h.T.Helper()
	h.Now = now
	return h.Runner.SampleAt(now)
}

// Repeated reports whether source's last part repeats the one before it
// (its text was unchanged: Builder.Again or the same values set).
func (h *Harness) Repeated(source string) bool {
	h.T.Helper()
	snap := h.Store.Load()
	src, ok := snap.Schema.SourceIndex(source)
	if !ok || snap.Part(src) == nil {
		h.T.Fatalf("no part of source %s", source)
	}
	return snap.Part(src).Repeats()
}

func (h *Harness) MustSample(now time.Time) {
	h.T.Helper()
	if err := h.Sample(now); err != nil {
		h.T.Fatalf("sample: %v", err)
	}
}

// Desc finds a metric by its name below the hostcache prefix.
func (h *Harness) Desc(name string) *cache.Desc {
	h.T.Helper()
	d, ok := h.Store.Schema().Lookup(engine.Prefix + name)
	if !ok {
		h.T.Fatalf("no metric %s%s", engine.Prefix, name)
	}
	return d
}

func (h *Harness) Values(name string) []cache.Value {
	h.T.Helper()
	return h.Store.Load().AppendValues(nil, h.Desc(name), h.Now)
}

func (h *Harness) Value(name string, inst uint32) (cache.Value, bool) {
	h.T.Helper()
	for _, v := range h.Values(name) {
		if v.Inst == inst {
			return v, true
		}
	}
	return cache.Value{}, false
}

func (h *Harness) MustValue(name string, inst uint32) cache.Value {
	h.T.Helper()
	v, ok := h.Value(name, inst)
	if !ok {
		h.T.Fatalf("%s[%d]: no value", name, inst)
	}
	return v
}

// U64 returns an integer value, failing the test if there is none.
func (h *Harness) U64(name string, inst uint32) uint64 {
	h.T.Helper()
	return h.MustValue(name, inst).Bits
}

// Float returns a FLOAT or DOUBLE value, failing the test if there is none.
func (h *Harness) Float(name string, inst uint32) float64 {
	h.T.Helper()
	v := h.MustValue(name, inst)
	if h.Desc(name).Type == cache.TypeFloat {
		return float64(v.Float())
	}
	return v.Double()
}

func (h *Harness) WantU64(name string, inst uint32, want uint64) {
	h.T.Helper()
	if got := h.U64(name, inst); got != want {
		h.T.Errorf("%s[%d] = %d, want %d", name, inst, got, want)
	}
}

func (h *Harness) WantFloat(name string, inst uint32, want float64) {
	h.T.Helper()
	if got := h.Float(name, inst); math.Abs(got-want) > 1e-9 {
		h.T.Errorf("%s[%d] = %v, want %v", name, inst, got, want)
	}
}

func (h *Harness) WantAbsent(name string, inst uint32) {
	h.T.Helper()
	if v, ok := h.Value(name, inst); ok {
		h.T.Errorf("%s[%d] = %+v, want no value", name, inst, v)
	}
}

// Published counts the values of every metric whose name starts with prefix.
func (h *Harness) Published(prefix string) int {
	h.T.Helper()
	n := 0
	snap := h.Store.Load()
	for i := range snap.Schema.Descs() {
		d := &snap.Schema.Descs()[i]
		if strings.HasPrefix(d.Name, engine.Prefix+prefix) {
			n += len(snap.AppendValues(nil, d, h.Now))
		}
	}
	return n
}

// NothingPublished checks that the collector's source has no part at all.
func (h *Harness) NothingPublished() {
	h.T.Helper()
	src, _ := h.Store.Schema().SourceIndex(h.C.Name())
	if p := h.Store.Load().Part(src); p != nil {
		h.T.Errorf("a part was published: %+v", p)
	}
}

// Resets is the engine's count of counter instances the collector saw go
// backwards (hostcache.control.collector.resets).
func (h *Harness) Resets() uint64 {
	h.T.Helper()
	d, ok := h.Store.Schema().Lookup("hostcache.control.collector.resets")
	if !ok {
		h.T.Fatal("no control.collector.resets")
	}
	vals := h.Store.Load().AppendValues(nil, d, h.Now)
	if len(vals) != 1 {
		h.T.Fatalf("control.collector.resets: %d values", len(vals))
	}
	return vals[0].Bits
}

// Instances returns the published members of an instance domain.
func (h *Harness) Instances(id cache.InDomID) []cache.Instance {
	h.T.Helper()
	in, ok := h.Store.Load().InDom(id)
	if !ok {
		h.T.Fatalf("indom %d unknown", id)
	}
	return in.All()
}
