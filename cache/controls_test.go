package cache

import (
	"strings"
	"testing"
	"time"
)

// Each client's own threads setting wins over the default, until pmcd
// says the client has gone; the cgroup is each client's own.
func TestProcControlsPerClient(t *testing.T) {
	c := NewProcControls()
	if c.Threads(1) || c.AllThreads() || c.Cgroup(1) != "" {
		t.Fatal("controls start on")
	}
	c.SetAllThreads(true)
	c.SetThreads(1, false)
	c.SetCgroup(1, "/sys/fs/cgroup/a")
	if c.Threads(1) || !c.Threads(2) {
		t.Errorf("client 1 (own 0) sees threads %v, client 2 (none) %v", c.Threads(1), c.Threads(2))
	}
	if c.Cgroup(1) != "/sys/fs/cgroup/a" || c.Cgroup(2) != "" {
		t.Errorf("cgroups %q %q", c.Cgroup(1), c.Cgroup(2))
	}
	c.Forget(1)
	if !c.Threads(1) || c.Cgroup(1) != "" {
		t.Errorf("a forgotten client keeps threads %v cgroup %q", c.Threads(1), c.Cgroup(1))
	}
	var none *ProcControls
	if none.Threads(1) || none.AllThreads() || none.Cgroup(1) != "" {
		t.Error("nil controls are not all off")
	}
	none.Forget(1)
}

// A control metric's value is the asking client's setting, and reading it
// reads no source: it wakes no collector.
func TestControlValuesReadNoSource(t *testing.T) {
	own := Desc{Name: "p.own", ID: NewMetricID(10, 2), Type: TypeU32, Sem: SemInstant, InDom: InDomNone,
		Control: ControlClientThreads}
	cg := Desc{Name: "p.cgroup", ID: NewMetricID(10, 3), Type: TypeString, Sem: SemInstant, InDom: InDomNone,
		Control: ControlClientCgroups}
	schema, err := NewSchema(Source{Name: "p", Metrics: []Desc{own, cg}})
	if err != nil {
		t.Fatal(err)
	}
	front := NewFront(schema)
	c := NewProcControls()
	c.SetThreads(4, true)
	c.SetCgroup(4, "/a")
	for client, want := range map[int32][2]any{4: {uint64(1), "/a"}, 5: {uint64(0), ""}} {
		r := Request{Snap: front.Load(), Now: time.Now(), Client: client, Controls: c}
		v := r.AppendValues(nil, &own)
		s := r.AppendValues(nil, &cg)
		if len(v) != 1 || v[0].Bits != want[0] || len(s) != 1 || s[0].Str != want[1] {
			t.Errorf("client %d: %+v %+v, want %v", client, v, s, want)
		}
	}
	if !schema.LastRead(0).IsZero() {
		t.Error("reading a control noted a read of its source")
	}
}

// The schema finds each metric's and domain's threads view; two views of
// one metric are an error.
func TestThreadViews(t *testing.T) {
	proc := Desc{Name: "p.utime", ID: NewMetricID(8, 6), Type: TypeU64, Sem: SemCounter, InDom: 50}
	view := Desc{Name: "p.threads.utime", ID: NewMetricID(308, 6), Type: TypeU64, Sem: SemCounter, InDom: 51,
		Threads: true, ThreadsOf: proc.ID}
	indoms := []InDomDesc{{ID: 50, Name: "processes"}, {ID: 51, Name: "threads", Threads: true, ThreadsOf: 50}}
	schema, err := NewSchema(Source{Name: "p", Metrics: []Desc{proc, view}, InDoms: indoms})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := schema.ThreadView(proc.ID); !ok || d.ID != view.ID {
		t.Errorf("threads view of p.utime: %v %v", d, ok)
	}
	if _, ok := schema.ThreadView(view.ID); ok {
		t.Error("a threads view has a threads view")
	}
	if in, ok := schema.ThreadInDom(50); !ok || in != 51 {
		t.Errorf("threads view of domain 50: %d %v", in, ok)
	}
	second := view
	second.Name, second.ID = "p.threads2.utime", NewMetricID(309, 6)
	_, err = NewSchema(Source{Name: "p", Metrics: []Desc{proc, view, second}, InDoms: indoms})
	if err == nil || !strings.Contains(err.Error(), "two threads views") {
		t.Errorf("two views of one metric: %v", err)
	}
}
