package mmvfiles

import (
	"fmt"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// mmvPlan is what one file's layout publishes at its cluster: its
// metrics with their descriptors and values, its instance domains and
// their instances. It is made once a layout and cluster, so its problems
// are reported once.
type mmvPlan struct {
	layout  *mmv.File
	cluster uint32
	metrics []mmvMetricPlan
	indoms  []cache.InDomDesc
	tables  []mmvTable
	noted   map[string]bool // names whose clash with another file was reported
}

// mmvMetricPlan is one metric served: its descriptor and where its
// values lie.
type mmvMetricPlan struct {
	desc   cache.Desc
	metric *mmv.Metric
	sets   []mmvSet
}

// mmvSet is one value to publish: where it lies and what it is.
type mmvSet struct {
	value *mmv.Value
	id    cache.MetricID
	inst  uint32
}

// mmvTable is one instance domain's members, made once a layout.
type mmvTable struct {
	id    cache.InDomID
	in    *cache.Instances
	indom *mmv.Indom
}

// newMMVPlan plans f's layout at f's cluster. Refused are: a domain whose
// serial does not fit the file's 64 (indomMMVPerFile) or with an
// instance numbered as PM_IN_NULL, with its metrics; a metric whose item
// leaves its rate no room (engine.RateItemOffset). A metric of type
// NOSUPPORT, declared without values, is left out as pmdammv answers it
// with no value.
func newMMVPlan(f *mmvFile) (*mmvPlan, []error) {
	p := &mmvPlan{layout: f.layout, cluster: f.cluster, noted: map[string]bool{}}
	labels := mmvLabelsOf(f.layout)
	problems := p.planInDoms(f.name, labels)
	domains := make(map[uint32]cache.InDomID, len(p.tables))
	for _, t := range p.tables {
		domains[t.indom.Serial] = t.id
	}
	index := make([]int, len(f.layout.Metrics)) // metric → plan index, -1 if refused
	for i := range f.layout.Metrics {
		m := &f.layout.Metrics[i]
		index[i] = -1
		d, why := mmvDesc(mmvName(f.name, f.layout.Flags, m.Name), f.cluster, m, domains)
		switch {
		case why != "":
			problems = append(problems,
				fmt.Errorf("mmv file %s: metric %s: %s, not served", f.name, m.Name, why))
		case m.Type != mmv.TypeNoSupport:
			d.Labels = labels.item(m.Item)
			index[i] = len(p.metrics)
			p.metrics = append(p.metrics, mmvMetricPlan{desc: d, metric: m})
		}
	}
	p.planValues(index)
	return p, problems
}

// planInDoms makes the descriptions and instance tables of the domains
// the file's cluster has room for.
func (p *mmvPlan) planInDoms(file string, labels mmvLabels) []error {
	var problems []error
	for i := range p.layout.Indoms {
		d := &p.layout.Indoms[i]
		if why := mmvInDomRefusal(d); why != "" {
			problems = append(problems, fmt.Errorf("mmv file %s: indom %d: %s, not served with its metrics",
				file, d.Serial, why))
			continue
		}
		id := mmvInDomID(p.cluster, d.Serial)
		p.indoms = append(p.indoms, cache.InDomDesc{ID: id, Name: fmt.Sprintf("mmv %s %d", file, d.Serial),
			Labels: labels.indoms[d.Serial]})
		list := make([]cache.Instance, len(d.Instances))
		for k, x := range d.Instances {
			list[k] = cache.Instance{ID: uint32(x.ID), Name: x.Name,
				Labels: labels.instances[mmvInstKey{d.Serial, x.ID}]}
		}
		p.tables = append(p.tables, mmvTable{id: id, in: cache.NewInstances(list), indom: d})
	}
	return problems
}

// planValues places each value of a metric served.
func (p *mmvPlan) planValues(index []int) {
	for i := range p.layout.Values {
		v := &p.layout.Values[i]
		if k := index[v.Metric]; k >= 0 {
			mp := &p.metrics[k]
			mp.sets = append(mp.sets, mmvSet{value: v, id: mp.desc.ID, inst: uint32(v.Inst)})
		}
	}
}

// mmvInDomRefusal says why a domain cannot be served, or "".
func mmvInDomRefusal(d *mmv.Indom) string {
	if d.Serial >= indomMMVPerFile {
		return fmt.Sprintf("serial %d or above", indomMMVPerFile)
	}
	for _, x := range d.Instances {
		if uint32(x.ID) == cache.InstNone {
			return fmt.Sprintf("instance %q is numbered %d, PM_IN_NULL", x.Name, x.ID)
		}
	}
	return ""
}

// mmvInDomID is the domain of serial in the file at cluster: 64 serials
// a file, by the file's cluster.
func mmvInDomID(cluster, serial uint32) cache.InDomID {
	return indomMMVFirst + indomMMVPerFile*cache.InDomID(cluster-clusterMMVFirst) + cache.InDomID(serial)
}

// mmvName is a metric's name as pmdammv makes it, below hostcache: the
// file's name is a level of its own unless the file sets FlagNoPrefix.
func mmvName(file string, flags mmv.Flags, metric string) string {
	if flags&mmv.FlagNoPrefix != 0 {
		return engine.Prefix + "mmv." + metric
	}
	return engine.Prefix + "mmv." + file + "." + metric
}

// mmvDesc describes metric m as pmdammv does (mmv's Exported: an
// elapsed time is a counter of microseconds). A string is never a
// counter, which has a rate (a writer that leaves the semantics 0 says
// counter): it is discrete. An instant number has peaks. why says why
// the metric cannot be served.
func mmvDesc(name string, cluster uint32, m *mmv.Metric, domains map[uint32]cache.InDomID) (d cache.Desc, why string) {
	if m.Item >= engine.RateItemOffset {
		return d, fmt.Sprintf("item %d is %d or above, which leaves its rate no item",
			m.Item, engine.RateItemOffset)
	}
	indom := cache.InDomNone
	if m.Indom != mmv.NoIndom {
		id, ok := domains[m.Indom]
		if !ok {
			return d, fmt.Sprintf("its indom %d is not served", m.Indom)
		}
		indom = id
	}
	t, sem, units := m.Exported()
	d = cache.Desc{Name: name, ID: cache.NewMetricID(cluster, m.Item), Type: cache.Type(t),
		Sem: cache.Sem(sem), Units: cache.Units(units), InDom: indom}
	switch {
	case d.Type == cache.TypeString && d.Sem == cache.SemCounter:
		d.Sem = cache.SemDiscrete
	case d.Type != cache.TypeString && d.Sem == cache.SemInstant:
		d = engine.WithPeaks(d)
	}
	return d, ""
}
