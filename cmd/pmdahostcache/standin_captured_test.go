package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// compileHelp compiles a newhelp source into base.{dir,pag} with PCP's
// newhelp, as Install does.
func compileHelp(t *testing.T, base, src string) {
	t.Helper()
	newhelp := filepath.Join("/usr/lib/pcp/bin", "newhelp")
	if dir := os.Getenv("PCP_BINADM_DIR"); dir != "" {
		newhelp = filepath.Join(dir, "newhelp")
	}
	if _, err := os.Stat(newhelp); err != nil {
		testenv.SkipOutsideCI(t, "PCP's newhelp is not installed: "+err.Error())
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".src", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(newhelp, "-o", base, base+".src").CombinedOutput(); err != nil {
		t.Fatalf("newhelp %s: %v\n%s", base, err, out)
	}
}

// Standing in for pmdaproc, a PMID answers with pmdaproc's help file's
// text, else with the text Install captured from the running pmdaproc
// (its newlines kept), else with hostcache's; the log names both files.
func TestStandInAnswersCapturedPmdaprocHelp(t *testing.T) {
	pmdas := t.TempDir()
	compileHelp(t, filepath.Join(pmdas, "proc", "help"), "@ 3.8.99 the help file's one-line text\n")
	compileHelp(t, help.CapturedBase(pmdas, "proc"),
		"@ 3.8.99 a captured text the help file hides\n.\n"+
			"@ 3.8.13 a captured one-line text\nA captured long text, ending with a newline.\n\n.\n")
	t.Setenv("PCP_PMDAS_DIR", pmdas)
	dir := t.TempDir()
	a := startProcStandInIn(t, dir)
	oneLine, long := int32(pmda.TextPMID|pmda.TextOneLine), int32(pmda.TextPMID|pmda.TextHelp)
	pmid := func(name string) uint32 { return standin.Proc().PMID(procMetric(t, name)) }
	nprocs, utime := pmid("proc.nprocs"), pmid("proc.psinfo.utime")
	if got := textOf(t, a, nprocs, oneLine); got != "the help file's one-line text" {
		t.Errorf("proc.nprocs: %q, want the help file's", got)
	}
	if got, sent := textReply(t, a, nprocs, long); !sent || got != "" {
		t.Errorf("proc.nprocs long: %q (sent %v), want the help file's empty text", got, sent)
	}
	if got := textOf(t, a, utime, oneLine); got != "a captured one-line text" {
		t.Errorf("proc.psinfo.utime: %q, want the captured text", got)
	}
	if got := textOf(t, a, utime, long); got != "A captured long text, ending with a newline.\n" {
		t.Errorf("proc.psinfo.utime long: %q, want the captured text", got)
	}
	ours, err := help.Parse(help.Source())
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := ours.MetricText("hostcache.proc.memory.rss", false)
	if got := textOf(t, a, pmid("proc.memory.rss"), oneLine); got != mine || mine == "" {
		t.Errorf("proc.memory.rss, in neither file: %q, want hostcache's %q", got, mine)
	}
	a.Kill()
	logged, err := os.ReadFile(filepath.Join(dir, "agent.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{filepath.Join(pmdas, "proc", "help"), help.CapturedBase(pmdas, "proc")} {
		if !strings.Contains(string(logged), file) {
			t.Errorf("the log does not name %s:\n%s", file, logged)
		}
	}
}
