//go:build linux

package integration

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// procLogged are the pmdaproc metrics the switch's pmlogger logs: a
// summary, a per-process counter and a placeholder's neighbour.
var procLogged = []string{"proc.nprocs", "proc.psinfo.utime", "proc.runq.runnable"}

// procLogger is a pmlogger logging procLogged every second across
// TestStandIn's switches, with the times each phase began.
type procLogger struct {
	dir    string
	proc   *background
	phases []procPhase
}

// procPhase is a span of the switch's run under one pmcd.conf.
type procPhase struct {
	name string
	from time.Time
}

// startProcLogger starts the logger, in pmdaproc's phase.
func startProcLogger(t *testing.T) *procLogger {
	t.Helper()
	requireTools(t, "pmlogger", "pmdumplog")
	l := &procLogger{dir: t.TempDir()}
	config := filepath.Join(l.dir, "config")
	text := "log mandatory on 1 sec {\n"
	for _, m := range procLogged {
		text += "\t" + m + "\n"
	}
	if err := os.WriteFile(config, []byte(text+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l.proc = startBackground(t, "pmlogger", "-c", config, "-l", filepath.Join(l.dir, "log"),
		filepath.Join(l.dir, "proc"))
	// The tools' first run, seconds long, is pmdaproc's phase.
	l.phase("pmdaproc")
	return l
}

// phase marks the start of the next phase.
func (l *procLogger) phase(name string) { l.phases = append(l.phases, procPhase{name, time.Now()}) }

// check holds the logger to the switches: it still runs after them, and
// every phase has records with a value of each logged metric.
func (l *procLogger) check(t *testing.T) {
	if err := l.proc.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("pmlogger stopped across the switches: %v\n%s", err, readText(t, filepath.Join(l.dir, "log")))
	}
	l.proc.cmd.Process.Signal(syscall.SIGINT)
	l.proc.cmd.Wait()
	l.proc.waited = true
	records := dumpRecords(t, l.dir)
	for i, p := range l.phases {
		end := time.Now()
		if i+1 < len(l.phases) {
			end = l.phases[i+1].from
		}
		counts := map[string]int{}
		for _, r := range records {
			if r.at.After(p.from) && r.at.Before(end) {
				for _, m := range procLogged {
					if r.values[m] {
						counts[m]++
					}
				}
			}
		}
		for _, m := range procLogged {
			if counts[m] == 0 {
				t.Errorf("pmlogger logged no %s while %s served it", m, p.name)
			}
		}
		t.Logf("%s: %v records with values", p.name, counts)
	}
}
