package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/internal/linuxtable"
)

// The committed table is what render writes for its own rows, so that
// make linux-table rewrites it in place (same path, package and names).
func TestCommittedTableRendersItself(t *testing.T) {
	want, err := os.ReadFile("../../internal/linuxtable/linux_table.go")
	if err != nil {
		t.Fatal(err)
	}
	var ms []metric
	for _, m := range linuxtable.Table() {
		ms = append(ms, metric{m.Name, m.Cluster, m.Item, m.InDom, m.Type, m.Sem, m.Units})
	}
	got, err := render(linuxtable.Version, ms)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("render does not reproduce internal/linuxtable/linux_table.go")
	}
}
