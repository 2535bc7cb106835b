package cache

import (
	"slices"
	"testing"
)

// A schema without collector labels gives metrics and domains their own
// labels only; the default adds the collector to both.
func TestCollectorLabelsAreAnOption(t *testing.T) {
	src := Source{Name: "disk",
		Metrics: []Desc{{Name: "x.read", ID: NewMetricID(1, 1), Type: TypeU64, Sem: SemCounter, InDom: 4,
			Labels: []Label{StringLabel("device_type", "block")}}},
		InDoms: []InDomDesc{{ID: 4, Name: "disks", Labels: []Label{StringLabel("indom_name", "per disk")}}}}
	for _, c := range []struct {
		opts      SchemaOptions
		item, dom []string
	}{
		{SchemaOptions{}, []string{"collector", "device_type"}, []string{"collector", "indom_name"}},
		{SchemaOptions{NoCollectorLabels: true}, []string{"device_type"}, []string{"indom_name"}},
	} {
		s, err := NewSchemaWith(c.opts, src)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := s.Desc(NewMetricID(1, 1))
		in, _ := s.InDom(4)
		if got := labelNames(s.ItemLabels(d)); !slices.Equal(got, c.item) {
			t.Errorf("%+v: item labels %v, want %v", c.opts, got, c.item)
		}
		if got := labelNames(in.Labels); !slices.Equal(got, c.dom) {
			t.Errorf("%+v: domain labels %v, want %v", c.opts, got, c.dom)
		}
	}
}

func labelNames(ls []Label) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}
