package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/standin/linuxtable"
	"github.com/pmdahostcache/pmdahostcache/standin/proctable"
)

// The committed tables are what render writes for their own rows, so that
// make linux-table and make proc-table rewrite them in place (same path,
// package and names).
func TestCommittedTablesRenderThemselves(t *testing.T) {
	var linux, proc []metric
	for _, m := range linuxtable.Table() {
		linux = append(linux, metric{name: m.Name, cluster: m.Cluster, item: m.Item,
			indom: m.InDom, typ: m.Type, sem: m.Sem, units: m.Units})
	}
	for _, m := range proctable.Table() {
		proc = append(proc, metric{name: m.Name, cluster: m.Cluster, item: m.Item,
			indom: m.InDom, typ: m.Type, sem: m.Sem, units: m.Units})
	}
	checkCommitted(t, agents["linux"], linuxtable.Version, linux, "../../standin/linuxtable")
	checkCommitted(t, agents["proc"], proctable.Version, proc, "../../standin/proctable")
}

func checkCommitted(t *testing.T, a agent, version string, ms []metric, dir string) {
	t.Helper()
	files, err := render(a, version, ms)
	if err != nil {
		t.Fatal(err)
	}
	committed, _ := filepath.Glob(filepath.Join(dir, a.file+"*.go"))
	if len(committed) != len(files) {
		t.Errorf("%d files committed in %s, render writes %d", len(committed), dir, len(files))
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(f.Src, want) {
			t.Errorf("render does not reproduce %s/%s (%v)", dir, f.Name, err)
		}
	}
}
