package standin

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// hostcacheSchema builds hostcache's full schema as the agent and
// tools/genmetrics do: every registered collector on the fixture tree, with
// the engine's rates, derived figures, peaks and controls. What the
// collectors declare does not depend on the tree.
func hostcacheSchema(t *testing.T) *cache.Schema {
	t.Helper()
	env := engine.Env{Proc: filepath.Join("..", "testdata", "proc-t0"), Sys: filepath.Join("..", "testdata", "sys-t0")}
	var cs []engine.Collector
	for _, reg := range collector.Registry() {
		c, err := reg.Factory(env)
		if err != nil {
			t.Fatalf("collector %s: %v", reg.Name, err)
		}
		cs = append(cs, c)
	}
	runner := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second})
	s, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// hostcacheIdentity builds the Identity of the full schema.
func hostcacheIdentity(t *testing.T) (*cache.Schema, *Identity, []Problem) {
	t.Helper()
	s := hostcacheSchema(t)
	x, problems, err := New(s.Descs(), s.InDoms(), LinuxTable())
	if err != nil {
		t.Fatal(err)
	}
	return s, x, problems
}
