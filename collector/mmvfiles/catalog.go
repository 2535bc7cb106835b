package mmvfiles

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/mmv"
)

// mmvCatalog is what the files in use publish, assembled by the scan
// when the files in use, their layouts or clusters change. The view is
// immutable and swapped whole, so the descriptors and help can be read
// from any goroutine while the collector scans. A view that changes the
// metrics served waits for the pace (mmvPace); meanwhile the view in use
// stays, its parts of files gone or changed publishing nothing.
type mmvCatalog struct {
	seen        []mmvInUse // the files in use at the last scan
	view        atomic.Pointer[mmvView]
	next        *mmvView // the assembly of seen while it waits, else nil
	nextChanges bool     // next changes the metrics served
	pace        mmvPace
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

// mmvPart is what one file in use publishes, and the metrics it serves.
type mmvPart struct {
	file    *mmvFile
	cluster uint32
	reader  *mmv.Reader
	layout  *mmv.File
	tables  []mmvTable
	sets    []mmvSet
	descs   []cache.Desc  // the metrics served, as the plan lists them
	help    []*mmv.Metric // each one's help
	indoms  []cache.InDomDesc
}

// load is the current view; empty before the first assembly.
func (c *mmvCatalog) load() *mmvView {
	if v := c.view.Load(); v != nil {
		return v
	}
	return &mmvView{}
}

// assemble makes a new view when the files in use differ from the last
// scan's and reports whether the metrics served changed. A view of the
// same descriptors and domains is used at once; one that changes them
// when the pace allows, and is tried again at each scan until then, while
// the view in use takes the parts of the files whose metrics stay.
func (c *mmvCatalog) assemble(inUse []*mmvFile, now time.Time, problems *[]error) bool {
	if files := mmvInUseOf(inUse); !slices.Equal(files, c.seen) {
		c.seen, c.next = files, newMMVView(inUse, problems)
		c.nextChanges = !sameMMVMetrics(c.load(), c.next)
		if c.nextChanges {
			c.view.Store(c.load().freshened(c.next))
		}
	}
	if c.next == nil {
		return false
	}
	if c.nextChanges {
		wait, told := c.pace.hold(now)
		if told != nil {
			*problems = append(*problems, told)
		}
		if wait {
			return false
		}
		c.pace.apply(now)
	}
	c.view.Store(c.next)
	c.next = nil
	return c.nextChanges
}

// mmvInUseOf is what an assembly of the files in use depends on.
func mmvInUseOf(inUse []*mmvFile) []mmvInUse {
	files := make([]mmvInUse, len(inUse))
	for i, f := range inUse {
		files[i] = mmvInUse{f, f.layout, f.cluster}
	}
	return files
}

// newMMVView assembles the files in use, the earliest arrival first. A
// name is served by the file that came first; a later file's metric of
// the same name, or above or below it in the tree, is refused once a
// layout.
func newMMVView(inUse []*mmvFile, problems *[]error) *mmvView {
	files := slices.Clone(inUse)
	sort.Slice(files, func(a, b int) bool { return files[a].arrival < files[b].arrival })
	names := mmvNames{leaves: map[string]bool{}, nodes: map[string]bool{}}
	parts := make([]mmvPart, 0, len(files))
	for _, f := range files {
		if f.plan == nil || f.plan.layout != f.layout || f.plan.cluster != f.cluster {
			var ps []error
			f.plan, ps = newMMVPlan(f)
			*problems = append(*problems, ps...)
		}
		parts = append(parts, newMMVPart(f, &names, problems))
	}
	return mmvViewOf(parts)
}

// mmvViewOf gathers the parts' metrics, domains and help.
func mmvViewOf(parts []mmvPart) *mmvView {
	v := &mmvView{metricHelp: map[string]*mmv.Metric{}, indomHelp: map[cache.InDomID]*mmv.Indom{}, parts: parts}
	for i := range parts {
		p := &parts[i]
		for _, t := range p.tables {
			v.indomHelp[t.id] = t.indom
		}
		for k, d := range p.descs {
			v.metricHelp[d.Name] = p.help[k]
		}
		v.descs = append(v.descs, p.descs...)
		v.indoms = append(v.indoms, p.indoms...)
	}
	sort.Slice(v.descs, func(a, b int) bool { return v.descs[a].ID < v.descs[b].ID })
	sort.Slice(v.indoms, func(a, b int) bool { return v.indoms[a].ID < v.indoms[b].ID })
	return v
}

// newMMVPart is what f's plan publishes of the names still free.
func newMMVPart(f *mmvFile, names *mmvNames, problems *[]error) mmvPart {
	p := f.plan
	part := mmvPart{file: f, cluster: p.cluster, reader: f.reader, layout: p.layout, tables: p.tables,
		indoms: p.indoms}
	for i := range p.metrics {
		mp := &p.metrics[i]
		if why := names.add(mp.desc.Name); why != "" {
			if !p.noted[mp.desc.Name] {
				*problems = append(*problems, fmt.Errorf("mmv file %s: metric %s: %s, not served",
					f.name, mp.metric.Name, why))
			}
			p.noted[mp.desc.Name] = true
			continue
		}
		part.descs = append(part.descs, mp.desc)
		part.help = append(part.help, mp.metric)
		part.sets = append(part.sets, mp.sets...)
	}
	return part
}

// freshened is v with each part whose file serves the same metrics in
// next taken from next: a file's new generation or new file of the same
// metrics publishes while a change of other files' metrics waits.
func (v *mmvView) freshened(next *mmvView) *mmvView {
	parts := slices.Clone(v.parts)
	fresh := false
	for i := range parts {
		for k := range next.parts {
			if q := &next.parts[k]; parts[i].staleTwinOf(q) {
				parts[i], fresh = *q, true
			}
		}
	}
	if !fresh {
		return v
	}
	return mmvViewOf(parts)
}

// staleTwinOf says q is the same file's part, read anew, serving the
// same metrics at the same cluster.
func (p *mmvPart) staleTwinOf(q *mmvPart) bool {
	return p.file.name == q.file.name && p.cluster == q.cluster && (p.reader != q.reader || p.layout != q.layout) &&
		slices.EqualFunc(p.descs, q.descs, sameMMVDesc) && slices.EqualFunc(p.indoms, q.indoms, sameMMVInDom)
}

// sameMMVMetrics says two views serve the same descriptors and domains:
// going from one to the other changes no metric of the schema.
func sameMMVMetrics(a, b *mmvView) bool {
	return slices.EqualFunc(a.descs, b.descs, sameMMVDesc) && slices.EqualFunc(a.indoms, b.indoms, sameMMVInDom)
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
