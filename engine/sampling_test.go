package engine

import (
	"testing"
	"time"
)

func TestRunnerCountsSamplesErrorsAndPanics(t *testing.T) {
	c := &scripted{name: "s"}
	r, st := newTestRunner(t, c, time.Second)
	r.SampleAll()
	c.fail.Store(true)
	r.SampleAll()
	c.fail.Store(false)
	c.panics.Store(true)
	r.SampleAll() // recovered: the agent keeps serving
	s, e, p := controlValue(t, st, ctlSamples), controlValue(t, st, ctlErrors), controlValue(t, st, ctlPanics)
	if s != 3 || e != 2 || p != 1 {
		t.Errorf("samples %d errors %d panics %d, want 3 2 1", s, e, p)
	}
	// The failed samples published nothing: the first sample's value stays.
	desc, _ := st.Schema().Desc(scriptedValue.ID)
	if v := st.Load().Values(desc); len(v) != 1 || v[0].Bits != 1 {
		t.Errorf("published value %v, want the first sample's 1", v)
	}
	if age := controlValue(t, st, ctlAge); age > 60_000 {
		t.Errorf("age %d ms", age)
	}
}
