package help

import (
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// fixed answers the texts it holds, by name and by instance domain.
type fixed struct {
	metrics map[string]string
	indoms  map[cache.InDomID]string
}

func (f fixed) MetricText(name string, long bool) (string, bool) {
	s, ok := f.metrics[name]
	return s, ok
}

func (f fixed) InDomText(id cache.InDomID, long bool) (string, bool) {
	s, ok := f.indoms[id]
	return s, ok
}

// The help files answer first; a collector's help answers what they lack.
func TestChainAnswersInTurn(t *testing.T) {
	base := fixed{map[string]string{"a": "base a"}, map[cache.InDomID]string{1: "base 1"}}
	more := fixed{map[string]string{"a": "more a", "b": "more b"}, map[cache.InDomID]string{1: "more 1", 2: "more 2"}}
	if got, ok := Chain(base, nil).(fixed); !ok || got.metrics["a"] != "base a" {
		t.Errorf("a chain of one is %T, want the source itself", got)
	}
	c := Chain(base, []TextSource{more})
	for name, want := range map[string]string{"a": "base a", "b": "more b", "c": ""} {
		if got, ok := c.MetricText(name, false); got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", name, got, ok, want)
		}
	}
	for id, want := range map[cache.InDomID]string{1: "base 1", 2: "more 2", 3: ""} {
		if got, ok := c.InDomText(id, false); got != want || ok != (want != "") {
			t.Errorf("indom %d: %q %v, want %q", id, got, ok, want)
		}
	}
}

// A collector's help is its own texts, or its files' assembled by MMV;
// a collector with neither has none.
func TestCollectorTexts(t *testing.T) {
	own := fixed{metrics: map[string]string{"a": "own a"}}
	files := mmvFiles{"hostcache.mmv.x": {"x", ""}}
	got := CollectorTexts([]any{own, files, 42})
	if len(got) != 2 {
		t.Fatalf("%d sources, want 2", len(got))
	}
	if s, _ := got[0].MetricText("a", false); s != "own a" {
		t.Errorf("own texts: %q", s)
	}
	if s, _ := got[1].MetricText("hostcache.rate.mmv.x", false); s != "rate per second of hostcache.mmv.x: x" {
		t.Errorf("the files' texts through MMV: %q", s)
	}
}
