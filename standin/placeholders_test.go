package standin

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Every pmdalinux metric without a twin gets a placeholder with its
// descriptor, which New makes a twin: pmdalinux's PMID answers it.
func TestPlaceholdersAreTwins(t *testing.T) {
	table := LinuxTable()
	have := map[string]bool{"hostcache.kernel.all.load": true}
	src := Placeholders(linuxWith(table), have)
	if len(src.Metrics) != len(table)-1 {
		t.Fatalf("%d placeholders for %d metrics, one of them had", len(src.Metrics), len(table))
	}
	x, problems, err := New(linuxWith(table), src.Metrics, src.InDoms)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 || x.Twins() != len(src.Metrics) {
		t.Errorf("%d twins of %d placeholders; problems %v", x.Twins(), len(src.Metrics), problems)
	}
	for _, d := range src.Metrics {
		if !IsPlaceholder(d.ID) || d.ID.Cluster() >= 1<<12-Shift {
			t.Errorf("%s: id %s outside the placeholders' range", d.Name, d.ID)
		}
		if !d.Unsupported {
			t.Errorf("%s: a placeholder not marked Unsupported would answer no values, where pmdalinux answers PM_ERR_APPVERSION", d.Name)
		}
	}
	for _, m := range table {
		if m.Name == "ipc.shm.key" {
			id, ok := x.Metric(Linux().PMID(m))
			if !ok || !IsPlaceholder(id) || x.InDom(cache.InDomID(PlaceholderInDom)+m.InDom) != Linux().WireInDom(m.InDom) {
				t.Errorf("ipc.shm.key's PMID names %s, %v", id, ok)
			}
		}
	}
}
