package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// bgWindow is how long each background-CPU figure of the scale report is
// measured; bgSettle is how long an agent runs before (its first samples,
// and with idle_after 5 s its slowing down).
var (
	bgWindow    = 10 * time.Second
	bgSettle    = 4 * time.Second
	idleSettle  = 15 * time.Second
	idleWindow  = 20 * time.Second
	costSamples = 40 // per collector at 1x; fewer at larger sizes
)

// bgPoint is the background of one synthetic host: the agent at its
// default intervals, the agent with nothing read, and the two re-read
// floors following the collectors' own reading plan, with each
// collector's cost per sample on the same tree.
type bgPoint struct {
	agent, idle, cFloor, goFloor time.Duration
	costs                        []collectorCost
}

// measureBackground measures the background of the tree in dir.
func measureBackground(agent, ticker, self, dir string, factor int) (bgPoint, error) {
	var p bgPoint
	var err error
	env := engine.Env{Proc: filepath.Join(dir, "proc"), Sys: filepath.Join(dir, "sys")}
	if p.costs, err = collectorCosts(max(costSamples/factor, 3), env); err != nil {
		return p, err
	}
	plan := filepath.Join(dir, "plan")
	if err := writePlan(plan, planOf(p.costs)); err != nil {
		return p, err
	}
	if p.agent, err = agentBackground(agent, dir, "", bgSettle, bgWindow); err != nil {
		return p, err
	}
	if p.idle, err = agentBackground(agent, dir, "idle_after = 5\n", idleSettle, idleWindow); err != nil {
		return p, err
	}
	if p.cFloor, err = backgroundCPU(ticker, []string{plan}, bgWindow); err != nil {
		return p, fmt.Errorf("C floor: %w", err)
	}
	if p.goFloor, err = backgroundCPU(self, []string{"go-ticker", plan}, bgWindow); err != nil {
		return p, fmt.Errorf("Go floor: %w", err)
	}
	return p, nil
}

// agentBackground runs the agent on the tree with nobody fetching and
// returns its CPU per second after settle.
func agentBackground(agent, dir, conf string, settle, window time.Duration) (time.Duration, error) {
	a, err := startSynthetic(agent, dir, conf)
	if err != nil {
		return 0, err
	}
	defer a.Close(10 * time.Second)
	time.Sleep(settle)
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	time.Sleep(window)
	return time.Duration(float64(procCPU(a.Pid())-cpu0) / time.Since(t0).Seconds()), nil
}

// backgroundTable is the report of the background at every size.
func backgroundTable(sizes []int, points []bgPoint) string {
	var b strings.Builder
	b.WriteString("# Background CPU at scale\n\n" +
		"CPU per second of the agent on pipes with nobody fetching (default intervals, every source at\n" +
		"full rate: the first idle_after has not passed), and of the floors: a C program and a Go\n" +
		"goroutine that only re-read the same files at the same intervals, on the same tree (the files\n" +
		"each collector opens in a sample, read from kept fds, parsing nothing). \"Nothing read\" is the\n" +
		"agent with `idle_after = 5` after 15 s unread: every source at ten times its interval.\n\n" +
		"| host | agent | C floor | Go floor | agent / Go floor (target ≤ 1.5) | agent / C floor (≤ 3) | nothing read | nothing read / agent (≤ 0.2) |\n" +
		"|---|---|---|---|---|---|---|---|\n")
	for i, p := range points {
		g, c, q := ratio(p.agent, p.goFloor), ratio(p.agent, p.cFloor), ratio(p.idle, p.agent)
		fmt.Fprintf(&b, "| %dx | %s | %s | %s | %.1f %s | %.1f %s | %s | %.2f %s |\n", sizes[i], us(p.agent),
			us(p.cFloor), us(p.goFloor), g, verdict(g <= 1.5), c, verdict(c <= 3), us(p.idle), q, verdict(q <= 0.2))
	}
	b.WriteString("\n## Each collector's cost per sample at scale\n\n" +
		"CPU of one sample against the synthetic tree (in process, after the first sample), per\n" +
		"instance of its largest instance domain at the largest size, and its share of the background\n" +
		"at its interval. Collectors whose sources the generator does not write cost what failing costs.\n\n")
	b.WriteString("| collector | interval |")
	for _, s := range sizes {
		fmt.Fprintf(&b, " %dx per sample |", s)
	}
	last := len(points) - 1
	fmt.Fprintf(&b, " instances at %dx | per instance at %dx | per second at %dx |\n|---|---|", sizes[last], sizes[last], sizes[last])
	b.WriteString(strings.Repeat("---|", len(sizes)+3) + "\n")
	for j, c := range points[last].costs {
		fmt.Fprintf(&b, "| %s | %s |", c.name, c.interval)
		for _, p := range points {
			fmt.Fprintf(&b, " %s |", us(p.costs[j].cpu))
		}
		per := "—"
		if c.instances > 0 {
			per = fmt.Sprintf("%.0f ns", float64(c.cpu.Nanoseconds())/float64(c.instances))
		}
		fmt.Fprintf(&b, " %d | %s | %s |\n", c.instances, per, us(c.perSec))
	}
	return b.String()
}
