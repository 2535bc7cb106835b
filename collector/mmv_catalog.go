package collector

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// mmvCatalog is what the files in use publish, assembled by the scan
// when the files in use, their layouts or clusters change. The view is
// immutable and swapped whole, so the descriptors and help can be read
// from any goroutine while the collector scans.
type mmvCatalog struct {
	assembled []mmvInUse // the files the view was assembled from
	view      atomic.Pointer[mmvView]
}

// mmvInUse is one file in use as assembled.
type mmvInUse struct {
	file    *mmvFile
	layout  *mmv.File
	cluster uint32
}

// mmvView is one assembly: the descriptors and domains sorted by id, the
// help of each, and what each file publishes.
type mmvView struct {
	descs      []cache.Desc
	indoms     []cache.InDomDesc
	metricHelp map[string]*mmv.Metric
	indomHelp  map[cache.InDomID]*mmv.Indom
	parts      []mmvPart
}

// mmvPart is what one file in use publishes.
type mmvPart struct {
	reader *mmv.Reader
	layout *mmv.File
	tables []mmvTable
	sets   []mmvSet
}

// load is the current view; empty before the first assembly.
func (c *mmvCatalog) load() *mmvView {
	if v := c.view.Load(); v != nil {
		return v
	}
	return &mmvView{}
}

// assemble makes a new view when the files in use differ from the last
// assembly's and reports whether the descriptors or domains changed. A
// name is served by the file that came first; a later file's metric of
// the same name, or above or below it in the tree, is refused once a
// layout.
func (c *mmvCatalog) assemble(inUse []*mmvFile, problems *[]error) bool {
	now := make([]mmvInUse, len(inUse))
	for i, f := range inUse {
		now[i] = mmvInUse{f, f.layout, f.cluster}
	}
	if slices.Equal(now, c.assembled) {
		return false
	}
	c.assembled = now
	files := slices.Clone(inUse)
	sort.Slice(files, func(a, b int) bool { return files[a].arrival < files[b].arrival })
	v := &mmvView{metricHelp: map[string]*mmv.Metric{}, indomHelp: map[cache.InDomID]*mmv.Indom{}}
	names := mmvNames{leaves: map[string]bool{}, nodes: map[string]bool{}}
	for _, f := range files {
		if f.plan == nil || f.plan.layout != f.layout || f.plan.cluster != f.cluster {
			var ps []error
			f.plan, ps = newMMVPlan(f)
			*problems = append(*problems, ps...)
		}
		v.add(f, &names, problems)
	}
	sort.Slice(v.descs, func(a, b int) bool { return v.descs[a].ID < v.descs[b].ID })
	sort.Slice(v.indoms, func(a, b int) bool { return v.indoms[a].ID < v.indoms[b].ID })
	old := c.load()
	c.view.Store(v)
	return !slices.EqualFunc(old.descs, v.descs, sameMMVDesc) || !slices.EqualFunc(old.indoms, v.indoms, sameMMVInDom)
}

// add puts one file's plan in the view.
func (v *mmvView) add(f *mmvFile, names *mmvNames, problems *[]error) {
	p := f.plan
	part := mmvPart{reader: f.reader, layout: p.layout, tables: p.tables}
	for _, t := range p.tables {
		v.indomHelp[t.id] = t.indom
	}
	v.indoms = append(v.indoms, p.indoms...)
	for i := range p.metrics {
		mp := &p.metrics[i]
		if why := names.add(mp.desc.Name); why != "" {
			if !p.noted[mp.desc.Name] {
				*problems = append(*problems, fmt.Errorf("mmv file %s: metric %s: %s, not served", f.name, mp.metric.Name, why))
			}
			p.noted[mp.desc.Name] = true
			continue
		}
		v.descs = append(v.descs, mp.desc)
		v.metricHelp[mp.desc.Name] = mp.metric
		part.sets = append(part.sets, mp.sets...)
	}
	v.parts = append(v.parts, part)
}

// mmvNames are the names served so far and the levels above them: a
// name may be neither one of them nor below a name served.
type mmvNames struct {
	leaves map[string]bool
	nodes  map[string]bool
}

// add takes name, or says why it cannot be served.
func (n *mmvNames) add(name string) string {
	switch {
	case n.leaves[name]:
		return "another file serves " + name
	case n.nodes[name]:
		return "other metrics lie below " + name
	}
	for i := range name {
		if name[i] == '.' && n.leaves[name[:i]] {
			return "another file serves " + name[:i] + ", above it"
		}
	}
	n.leaves[name] = true
	for i := strings.IndexByte(name, '.'); i >= 0; i = nextDot(name, i) {
		n.nodes[name[:i]] = true
	}
	return ""
}

// nextDot is the index of the next '.' in s after i, or -1.
func nextDot(s string, i int) int {
	if j := strings.IndexByte(s[i+1:], '.'); j >= 0 {
		return i + 1 + j
	}
	return -1
}

func sameMMVDesc(a, b cache.Desc) bool {
	return a.Name == b.Name && a.ID == b.ID && a.Type == b.Type && a.Sem == b.Sem &&
		a.Units == b.Units && a.InDom == b.InDom && a.Peaks == b.Peaks && slices.Equal(a.Labels, b.Labels)
}

func sameMMVInDom(a, b cache.InDomDesc) bool {
	return a.ID == b.ID && a.Name == b.Name && slices.Equal(a.Labels, b.Labels)
}

// source is the metrics and domains of the files in use at the last scan.
func (m *mmvFiles) source() cache.Source {
	v := m.cat.load()
	return cache.Source{Name: "mmv", Metrics: slices.Clone(v.descs), InDoms: slices.Clone(v.indoms)}
}

// text is the help the file gives metric name: its one-line help, or
// its long help when long is set.
func (m *mmvFiles) text(name string, long bool) (string, bool) {
	mt, ok := m.cat.load().metricHelp[name]
	if !ok {
		return "", false
	}
	return mmvHelp(mt.ShortHelp, mt.LongHelp, long)
}

// indomText is the help the file gives domain id.
func (m *mmvFiles) indomText(id cache.InDomID, long bool) (string, bool) {
	d, ok := m.cat.load().indomHelp[id]
	if !ok {
		return "", false
	}
	return mmvHelp(d.ShortHelp, d.LongHelp, long)
}

// mmvHelp picks one of the texts; an empty one is none, as pmdammv
// answers a help offset of 0.
func mmvHelp(short, long string, wantLong bool) (string, bool) {
	if wantLong {
		return long, long != ""
	}
	return short, short != ""
}
