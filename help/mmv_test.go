package help

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// mmvFiles holds a file's texts: the one line, then the rest.
type mmvFiles map[string][2]string

func (f mmvFiles) MetricHelp(name string) (string, string, bool) {
	h, ok := f[name]
	return h[0], h[1], ok
}

func (f mmvFiles) InDomHelp(id cache.InDomID) (string, string, bool) {
	h, ok := f["indom"]
	return h[0], h[1], ok && id == 7
}

func TestMMVTexts(t *testing.T) {
	m := MMV{mmvFiles{"hostcache.mmv.app.u32": {"a u32", "A 32-bit counter."},
		"hostcache.mmv.app.i32": {"", ""}, "indom": {"things", ""}}}
	for _, c := range []struct {
		name string
		long bool
		want string
	}{
		{"hostcache.mmv.app.u32", false, "a u32"},
		{"hostcache.mmv.app.u32", true, "A 32-bit counter."},
		{"hostcache.mmv.app.i32", false, ""},
		{"hostcache.rate.mmv.app.u32", true, "rate per second of hostcache.mmv.app.u32: a u32"},
		{"hostcache.max.mmv.control.files", false,
			"highest in each client's interval of MMV files whose metrics the agent serves"},
		{"hostcache.min.rate.mmv.app.u32", false,
			"lowest in each client's interval of rate per second of hostcache.mmv.app.u32: a u32"},
		{"hostcache.mmv.control.changes", false, "changes of the MMV metrics"},
	} {
		if got, ok := m.MetricText(c.name, c.long); got != c.want || ok != (c.want != "") {
			t.Errorf("%s (long %v): %q %v, want %q", c.name, c.long, got, ok, c.want)
		}
	}
	if got, ok := m.InDomText(7, false); !ok || got != "things" {
		t.Errorf("instance domain: %q %v", got, ok)
	}
	if _, ok := m.InDomText(7, true); ok {
		t.Error("an empty long text is an answer: pmdammv has none")
	}
}
