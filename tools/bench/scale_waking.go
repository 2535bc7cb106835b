package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// wakeFloors is what waking alone costs: the C and Go floors with an empty
// reading plan, so they wake on the agent's grid (half a second past each
// second) and read nothing. The Go one runs on one processor, as the
// agent does (cmd/pmdahostcache/processors.go), so it is the agent's
// runtime with no work to do. It does not depend on the host's size.
type wakeFloors struct {
	c, goOne         time.Duration // CPU per second
	cRuns, goOneRuns float64       // threads put on a CPU per second
}

// measureWaking runs both floors with an empty plan for bgWindow each.
func measureWaking(ticker, self string) (wakeFloors, error) {
	var w wakeFloors
	dir, err := os.MkdirTemp("", "hostcache-waking-")
	if err != nil {
		return w, err
	}
	defer os.RemoveAll(dir)
	plan := filepath.Join(dir, "plan")
	if err := os.WriteFile(plan, nil, 0o644); err != nil {
		return w, err
	}
	if w.c, w.cRuns, err = backgroundUse(ticker, []string{plan}, nil, bgWindow); err != nil {
		return w, fmt.Errorf("C waking: %w", err)
	}
	w.goOne, w.goOneRuns, err = backgroundUse(self, []string{"go-ticker", plan}, []string{"GOMAXPROCS=1"}, bgWindow)
	if err != nil {
		return w, fmt.Errorf("Go waking: %w", err)
	}
	return w, nil
}

// wakingSection reports the waking floors beside the 1x figures, where
// they weigh most: at 1x the floors' reading is smallest next to waking.
func wakingSection(w wakeFloors, base bgPoint) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Waking alone\n\n"+
		"The same two floors with nothing to read, waking on the same grid, over %.0f s.\n", bgWindow.Seconds())
	b.WriteString("The Go one runs on one processor, as the agent does: the Go runtime with no work to do.\n" +
		"Thread runs are how many times a second the program's threads were put on a CPU (schedstat).\n\n" +
		"| program | CPU per second | thread runs per second |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| C, waking only | %s | %.2f |\n", us(w.c), w.cRuns)
	fmt.Fprintf(&b, "| Go, waking only, one processor | %s | %.2f |\n\n", us(w.goOne), w.goOneRuns)
	fmt.Fprintf(&b, "Waking is %.0f%% of the 1x C floor (%s).\n"+
		"A Go program pays %.1fx the 1x C floor before it reads a file.\n"+
		"Its threads are put on a CPU %.1f times a second, where C's is once.\n"+
		"At each tick the runtime wakes the thread that runs the timer, and its monitor thread (sysmon).\n"+
		"The monitor wakes with the timer, and again after each "+
		"of its short sleeps until it sees nothing running.\n"+
		"Beyond waking, the 1x agent spends %s a second (%s in all); the C floor spends %s reading.\n",
		100*ratio(w.c, base.cFloor), us(base.cFloor), ratio(w.goOne, base.cFloor), w.goOneRuns,
		us(base.agent-w.goOne), us(base.agent), us(base.cFloor-w.c))
	return b.String()
}
