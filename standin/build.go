package standin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// New builds the Numbering of hostcache's metrics (descs) and instance
// domains (indoms) against an agent's table (Agent.Table). A twin is
// hostcache.X whose type, semantics, units and instance domain are the
// agent's X's. The problems list every would-be twin that is not one
// and why; it then answers under its hostcache name only, in hostcache's
// own domain. An error means no mapping can be built: an id beyond the wire's range, or two ids on
// one wire identifier.
func New(agent Agent, descs []cache.Desc, indoms []cache.InDomDesc) (*Numbering, []Problem, error) {
	b := &builder{agent: agent, descs: descs, linux: map[string]Metric{}, indomName: map[cache.InDomID]string{},
		twin: map[cache.MetricID]Metric{}, indomTo: map[cache.InDomID]cache.InDomID{},
		alias: map[cache.InDomID]cache.InDomID{}}
	if err := b.readTable(agent.Table()); err != nil {
		return nil, nil, err
	}
	for _, in := range indoms {
		b.indomName[in.ID] = in.Name
	}
	b.matchDescs()
	b.chooseInDoms()
	b.settleSharedInDoms()
	x, err := b.numbering()
	if err != nil {
		return nil, nil, err
	}
	sort.SliceStable(b.problems, func(i, j int) bool { return b.problems[i].Name < b.problems[j].Name })
	return x, b.problems, nil
}

// builder holds the state of New.
type builder struct {
	agent     Agent
	descs     []cache.Desc
	linux     map[string]Metric // the agent's metrics by name
	indomName map[cache.InDomID]string
	twin      map[cache.MetricID]Metric       // the twins so far
	indomTo   map[cache.InDomID]cache.InDomID // internal domain -> pmdalinux serial
	alias     map[cache.InDomID]cache.InDomID // internal domain -> the one holding its serial
	problems  []Problem
}

// readTable indexes the table and checks that the agent's numbering is
// what the stand-in expects: every cluster and domain serial below Shift,
// no PMID twice.
func (b *builder) readTable(table []Metric) error {
	byPMID := map[uint32]string{}
	for _, m := range table {
		if m.Cluster >= Shift || (m.InDom != cache.InDomNone && m.InDom >= Shift) {
			return fmt.Errorf("%s's %s (%d.%d.%d, domain %d) is at or beyond the shift %d",
				b.agent.program(), m.Name, b.agent.Domain, m.Cluster, m.Item, m.InDom, Shift)
		}
		pmid := b.agent.PMID(m)
		if other, dup := byPMID[pmid]; dup {
			return fmt.Errorf("%s's %s and %s share PMID %d.%d.%d", b.agent.program(), other, m.Name,
				b.agent.Domain, m.Cluster, m.Item)
		}
		byPMID[pmid] = m.Name
		b.linux[m.Name] = m
	}
	return nil
}

// matchDescs finds the would-be twins by name and keeps those whose
// descriptor is the agent's.
func (b *builder) matchDescs() {
	for _, d := range b.descs {
		x, ok := strings.CutPrefix(d.Name, prefix)
		m, ok2 := b.linux[x]
		if !ok || !ok2 {
			continue
		}
		before := len(b.problems)
		b.compare(d, m)
		if len(b.problems) == before {
			b.twin[d.ID] = m
		}
	}
}

// compare adds a problem for each way d's descriptor differs from m's.
func (b *builder) compare(d cache.Desc, m Metric) {
	if d.Type != m.Type {
		b.add(KindType, d.Name, "hostcache %s, %s %s", d.Type, b.agent.program(), m.Type)
	}
	if d.Sem != m.Sem {
		b.add(KindSem, d.Name, "hostcache %s, %s %s", d.Sem, b.agent.program(), m.Sem)
	}
	if d.Units != m.Units {
		b.add(KindUnits, d.Name, "hostcache %s, %s %s", unitsText(d.Units), b.agent.program(),
			unitsText(m.Units))
	}
	if (d.InDom == cache.InDomNone) != (m.InDom == cache.InDomNone) {
		b.add(KindInDom, d.Name, "hostcache %s, %s %s", b.indomText(d.InDom), b.agent.program(),
			b.agent.inDomText(m.InDom))
	}
}

func (b *builder) add(k Kind, name, format string, args ...any) {
	b.problems = append(b.problems, Problem{Kind: k, Name: name, Why: fmt.Sprintf(format, args...)})
}

// demote takes a twin back, with the problem that says why.
func (b *builder) demote(d cache.Desc, format string, args ...any) {
	delete(b.twin, d.ID)
	b.add(KindInDom, d.Name, format, args...)
}

// twinsOn lists the twins whose internal domain is in, in descs order.
func (b *builder) twinsOn(in cache.InDomID) []cache.Desc {
	var out []cache.Desc
	for _, d := range b.descs {
		if _, ok := b.twin[d.ID]; ok && d.InDom == in {
			out = append(out, d)
		}
	}
	return out
}
