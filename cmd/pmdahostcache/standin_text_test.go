package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// linuxHelpDir is a PMDA directory holding a copy of the installed
// pmdalinux's compiled help, as $PCP_PMDAS_DIR would.
func linuxHelpDir(t *testing.T) string {
	t.Helper()
	src := filepath.Join("/var/lib/pcp/pmdas", "linux", "help")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "linux"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".dir", ".pag"} {
		data, err := os.ReadFile(src + ext)
		if err != nil {
			testenv.SkipOutsideCI(t, "pmdalinux's help is not installed: "+err.Error())
		}
		if err := os.WriteFile(filepath.Join(dir, "linux", "help"+ext), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// textOf is the text the agent answers, or "" for PM_ERR_TEXT.
func textOf(t *testing.T, a *driver.Agent, ident uint32, typ int32) string {
	t.Helper()
	text, _ := textReply(t, a, ident, typ)
	return text
}

// textReply is the text the agent answers, and false for PM_ERR_TEXT.
func textReply(t *testing.T, a *driver.Agent, ident uint32, typ int32) (string, bool) {
	t.Helper()
	h, reply, err := a.Request((&pmda.TextReq{Ident: ident, Type: typ}).Append(nil))
	if err != nil {
		t.Fatal(err)
	}
	if h.Type == pmda.TypeError {
		var e pmda.ErrorPDU
		if err := e.Decode(reply); err != nil || e.Code != pmda.ErrText {
			t.Fatalf("text of %#x: error %v %v", ident, e.Code, err)
		}
		return "", false
	}
	_, text, err := pmda.DecodeText(reply)
	if err != nil {
		t.Fatalf("text of %#x: %v (%x)", ident, err, reply)
	}
	return text, true
}

// Standing in, pmdalinux's names answer with pmdalinux's own help, so
// archives from before and after the switch carry the same text
// (hostcache's names keep hostcache's help on the socket: beside_test.go).
func TestStandInAnswersPmdalinuxHelp(t *testing.T) {
	dir := linuxHelpDir(t)
	linux, err := help.ReadCompiled(filepath.Join(dir, "linux", "help"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PCP_PMDAS_DIR", dir)
	a := startStandIn(t)
	// pmdalinux has no long help for kernel.all.load: it answers an
	// empty TEXT, which pmlogger logs so, and its clients ask for the
	// one-line text instead.
	for _, name := range []string{"kernel.all.load", "kernel.all.intr"} {
		m := linuxPMID(t, name)
		for _, long := range []bool{false, true} {
			typ := int32(pmda.TextPMID | pmda.TextOneLine)
			if long {
				typ = pmda.TextPMID | pmda.TextHelp
			}
			want, ok := linux.Metric(standin.Linux().PMID(m), long)
			if got, sent := textReply(t, a, standin.Linux().PMID(m), typ); !ok || !sent || got != want {
				t.Errorf("%s (long %v): %q (sent %v), want pmdalinux's %q (%v)", name, long, got, sent, want, ok)
			}
		}
	}
	load := linuxPMID(t, "kernel.all.load")
	inDom := standin.Linux().WireInDom(load.InDom)
	want, _ := linux.InDom(inDom, false)
	if got := textOf(t, a, inDom, pmda.TextInDom|pmda.TextOneLine); got != want || got == "" {
		t.Errorf("instance domain %#x: %q, want pmdalinux's %q", inDom, got, want)
	}
}

// Without pmdalinux's help, pmdalinux's names answer with hostcache's.
func TestStandInWithoutPmdalinuxHelpAnswersOurs(t *testing.T) {
	t.Setenv("PCP_PMDAS_DIR", t.TempDir())
	a := startStandIn(t)
	ours, err := help.Parse(help.Source())
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := ours.MetricText("hostcache.kernel.all.load", false)
	if got := textOf(t, a, standin.Linux().PMID(linuxPMID(t, "kernel.all.load")), pmda.TextPMID|pmda.TextOneLine); got != mine {
		t.Errorf("kernel.all.load: %q, want hostcache's %q", got, mine)
	}
}
