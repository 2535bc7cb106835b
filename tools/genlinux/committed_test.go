package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/standin/linuxtable"
)

// The committed table is what render writes for its own rows, so that
// make linux-table rewrites it in place (same path, package and names).
func TestCommittedTableRendersItself(t *testing.T) {
	var ms []metric
	for _, m := range linuxtable.Table() {
		ms = append(ms, metric{m.Name, m.Cluster, m.Item, m.InDom, m.Type, m.Sem, m.Units})
	}
	files, err := render(linuxtable.Version, ms)
	if err != nil {
		t.Fatal(err)
	}
	committed, _ := filepath.Glob("../../standin/linuxtable/linux_table*.go")
	if len(committed) != len(files) {
		t.Errorf("%d files committed, render writes %d", len(committed), len(files))
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join("../../standin/linuxtable", f.Name))
		if err != nil || !bytes.Equal(f.Src, want) {
			t.Errorf("render does not reproduce standin/linuxtable/%s (%v)", f.Name, err)
		}
	}
}
