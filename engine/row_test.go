package engine

import (
	"reflect"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

func TestRowDescMatchesMetric(t *testing.T) {
	r := Row{Name: "hostcache.kernel.all.load", Cluster: 2, Item: 0,
		Type: cache.TypeFloat, Sem: cache.SemInstant, InDom: 2, Peaks: true}
	want := WithPeaks(Metric("hostcache.kernel.all.load", 2, 0, cache.TypeFloat, cache.SemInstant, cache.UnitsNone, 2))
	if got := r.Desc(); !reflect.DeepEqual(got, want) {
		t.Errorf("Row.Desc() = %+v, want %+v", got, want)
	}
	if got := Descs([]Row{r, r}); len(got) != 2 || !reflect.DeepEqual(got[1], want) {
		t.Errorf("Descs = %+v", got)
	}
}

func TestRowOutsidePrefixPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a name outside hostcache. did not panic")
		}
	}()
	Row{Name: "kernel.all.load", InDom: cache.InDomNone}.Desc()
}
