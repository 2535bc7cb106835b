package proc

import (
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/standin/proctable"
)

// pmdaproc's process instance domain, 3.9, and its hot processes', 3.39.
const (
	pmdaprocProcessInDom cache.InDomID = 9
	pmdaprocHotInDom     cache.InDomID = 39
)

// Every hostcache.proc.X, of the process collector and of the groups',
// has pmdaproc's proc.X descriptor (standin/proctable, generated from
// pmdaproc itself): type, semantics, units, and the process instance
// domain where pmdaproc has 3.9. Its item is pmdaproc's and its cluster
// pmdaproc's plus 100, so that the stand-in can map one to the other.
func TestDescriptorsMatchPmdaproc(t *testing.T) {
	theirs := map[string]proctable.Metric{}
	for _, m := range proctable.Table() {
		theirs[m.Name] = m
	}
	for _, d := range registryMetrics(t) {
		if d.Threads {
			continue // the threads views: TestThreadViewsMirrorTheProcesses
		}
		name := strings.TrimPrefix(d.Name, engine.Prefix)
		m, ok := theirs[name]
		if !ok {
			t.Errorf("%s: pmdaproc has no %s", d.Name, name)
			continue
		}
		indom := cache.InDomNone
		switch m.InDom {
		case pmdaprocProcessInDom:
			indom = indomProcess
		case pmdaprocHotInDom:
			indom = indomHot
		}
		if d.Type != m.Type || d.Sem != m.Sem || d.Units != m.Units || d.InDom != indom {
			t.Errorf("%s is %v %v %#x indom %d; pmdaproc's %v %v %#x indom %d", d.Name, d.Type, d.Sem,
				uint32(d.Units), d.InDom, m.Type, m.Sem, uint32(m.Units), m.InDom)
		}
		if d.ID.Item() != m.Item || d.ID.Cluster() != m.Cluster+100 {
			t.Errorf("%s is %s, pmdaproc's %d.%d (cluster + 100 wanted)", d.Name, d.ID, m.Cluster, m.Item)
		}
	}
}

// Every metric pmdaproc serves has its twin here: the 153 proc.* of
// pmdaproc 6.0.3, its three controls included, and the 159 hotproc.*.
func TestEveryPmdaprocMetricHasATwin(t *testing.T) {
	ours := map[string]bool{}
	for _, d := range registryMetrics(t) {
		ours[strings.TrimPrefix(d.Name, engine.Prefix)] = true
	}
	served := 0
	for _, m := range proctable.Table() {
		if !strings.HasPrefix(m.Name, "proc.") && !strings.HasPrefix(m.Name, "hotproc.") {
			continue
		}
		if !ours[m.Name] {
			t.Errorf("pmdaproc's %s has no twin", m.Name)
		}
		served++
	}
	if served != 153+159 {
		t.Errorf("%d pmdaproc metrics to twin, want the 312 of 6.0.3", served)
	}
}

// registryMetrics lists the metrics of every collector Registry makes.
func registryMetrics(t *testing.T) []cache.Desc {
	t.Helper()
	var out []cache.Desc
	for _, reg := range Registry() {
		c, err := reg.Factory(engine.Env{Proc: "/proc"})
		if err != nil {
			t.Fatalf("%s: %v", reg.Name, err)
		}
		out = append(out, c.Source().Metrics...)
	}
	return out
}

// Every counter has its rate: a double per second, in the process
// instance domain, with the counter's access.
func TestEveryProcessCounterHasARate(t *testing.T) {
	h := collectortest.NewHarness(t, NewProcessCollector, "processes/t0")
	for _, d := range h.Store.Schema().Descs() {
		if d.Sem != cache.SemCounter || !strings.HasPrefix(d.Name, engine.Prefix+"proc.") &&
			!strings.HasPrefix(d.Name, engine.Prefix+"hotproc.") {
			continue // the engine's own counters: engine's tests
		}
		r, ok := h.Store.Schema().Desc(engine.RateID(d.ID))
		units, _ := cache.RateOf(d.Units)
		if !ok || r.Name != engine.RateDesc(d).Name || r.Type != cache.TypeDouble || r.Units != units ||
			r.InDom != d.InDom || r.Access != d.Access {
			t.Errorf("%s: rate twin %+v", d.Name, r)
		}
	}
}
