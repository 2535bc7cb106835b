package help

import (
	"errors"
	"testing"
)

// Standing in, pmdalinux's numbering answers with pmdalinux's help, a
// placeholder with its own text, and every other name with ours.
func TestStandInAnswers(t *testing.T) {
	pmid, indom := uint32(60<<22|2<<10), uint32(60<<22|3)
	linux, err := ReadCompiled(compiledFixture(t, map[uint32][2]string{
		pmid: {"load average", ""}, indom | compiledInDom: {"load averages", "1, 5 and 15 minutes"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	ours := fixed{metrics: map[string]string{"hostcache.kernel.all.load": "ours"}}
	s := NewStandIn("linux", ours, linux, []string{"hostcache.kernel.all.pswitch"})
	if got, ok := s.WireText(pmid, false, true); !ok || got != "" {
		t.Errorf("pmdalinux's empty long text: %q %v, want it sent as it is", got, ok)
	}
	if got, _ := s.WireText(indom, true, true); got != "1, 5 and 15 minutes" {
		t.Errorf("pmdalinux's instance domain: %q", got)
	}
	if got, _ := s.MetricText("hostcache.kernel.all.load", false); got != "ours" {
		t.Errorf("a twin by name: %q, want ours", got)
	}
	if got, _ := s.MetricText("hostcache.kernel.all.pswitch", false); got !=
		"pmdalinux's kernel.all.pswitch, not sampled by hostcache" {
		t.Errorf("a placeholder: %q", got)
	}
	if _, ok := NewStandIn("linux", ours, nil, nil).WireText(pmid, false, false); ok {
		t.Error("without pmdalinux's help, its numbering still answers")
	}
}

func TestReadAgentNeedsItsDirectory(t *testing.T) {
	if _, _, err := ReadAgent("", "linux"); !errors.Is(err, ErrNoPMDAsDir) {
		t.Errorf("no directory: %v", err)
	}
	if _, _, err := ReadAgent(t.TempDir(), "proc"); err == nil {
		t.Error("a directory without pmdalinux's help is read")
	}
}
