package mmvfiles

import (
	"math"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// Sample times: t1 is exactly 2 s after t0, so every rate in the tests is
// the delta divided by 2.
var (
	t0 = time.Unix(1795320600, 0)
	t1 = t0.Add(2 * time.Second)
)

// harness runs one collector in the engine, as the agent does, so that
// its rates and peaks can be read: the engine half of the host
// collectors' fixture harness (collector/fixture_test.go).
type harness struct {
	t      *testing.T
	runner *engine.Runner
	store  *cache.Front
	now    time.Time // the last sample's time: values are read then
}

// attach builds the collector from env and the engine around it.
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
	h.runner, h.store = runner, cache.NewFront(schema)
	if err := runner.Attach(h.store); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) mustSample(now time.Time) {
	h.t.Helper()
	h.now = now
	if err := h.runner.SampleAt(now); err != nil {
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

func (h *harness) value(name string, inst uint32) (cache.Value, bool) {
	h.t.Helper()
	for _, v := range h.store.Load().AppendValues(nil, h.desc(name), h.now) {
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

func (h *harness) wantU64(name string, inst uint32, want uint64) {
	h.t.Helper()
	if got := h.u64(name, inst); got != want {
		h.t.Errorf("%s[%d] = %d, want %d", name, inst, got, want)
	}
}

// wantFloat checks a DOUBLE value (the engine's rates are doubles).
func (h *harness) wantFloat(name string, inst uint32, want float64) {
	h.t.Helper()
	if got := h.mustValue(name, inst).Double(); math.Abs(got-want) > 1e-9 {
		h.t.Errorf("%s[%d] = %v, want %v", name, inst, got, want)
	}
}
