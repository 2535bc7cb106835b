package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// bgWindow is how long each background-CPU figure of the scale report is
// measured: a little over a minute, so that the agent's once-a-minute work
// (disk layout and attributes, link settings, mount table links, hardware
// addresses: due a minute after its start) and the floors' once-a-minute
// reads (at whole minutes) fall in it. bgSettle is how long an agent runs
// before in `bench background` (its first samples, and with idle_after 5 s
// its slowing down).
//
// steadySettle is how long the agent at full rate runs before its window:
// past its first minute, which carries work done once per start (the
// collections that free what start-up allocated, buffers first grown to
// the host's size by the first full builds at the minute), so the window
// is the agent as pmcd keeps it for months; its second minute's
// once-a-minute work (at 120 s) is in the window. The unread agent is
// measured over the same minute.
var (
	bgWindow     = 61 * time.Second
	bgSettle     = 4 * time.Second
	steadySettle = 65 * time.Second
	idleWindow   = 61 * time.Second
	costSamples  = 40 // per collector at 1x; fewer at larger sizes
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
	if p.costs, err = collectorCosts(max(costSamples/factor, 3), treeEnv(dir)); err != nil {
		return p, err
	}
	plan := filepath.Join(dir, "plan")
	if err := writePlan(plan, planOf(p.costs)); err != nil {
		return p, err
	}
	if p.agent, err = agentBackground(agent, dir, "", steadySettle, bgWindow); err != nil {
		return p, err
	}
	if p.idle, err = agentBackground(agent, dir, "idle_after = 5\n", steadySettle, idleWindow); err != nil {
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

// treeEnv is the collectors' view of the generated tree in dir. The tree
// stands in for procfs and sysfs: files are kept open, as the agent keeps
// them there (keep_files, which startSynthetic sets).
func treeEnv(dir string) engine.Env {
	return engine.Env{Proc: filepath.Join(dir, "proc"), Sys: filepath.Join(dir, "sys"), KeepFiles: true}
}

// agentBackground runs the agent on the tree with nobody fetching and
// returns its CPU per second after settle.
func agentBackground(agent, dir, conf string, settle, window time.Duration) (time.Duration, error) {
	a, err := startSynthetic(agent, dir, conf, true)
	if err != nil {
		return 0, err
	}
	defer a.Close(10 * time.Second)
	time.Sleep(settle)
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	time.Sleep(window)
	return time.Duration(float64(procCPU(a.Pid())-cpu0) / time.Since(t0).Seconds()), nil
}

// treeWhere says why the trees are where they are.
func treeWhere() string {
	if memoryDir() == "/dev/shm" {
		return "The trees are in /dev/shm, a tmpfs, kept in memory as procfs and sysfs are.\n" +
			"On a disk filesystem this machine's page cache " +
			"drops a file within seconds of its last read,\n" +
			"and slower readers pay disk reads.\n\n"
	}
	return "The trees are in " + memoryDir() + ": there is no tmpfs at /dev/shm, and files read seldom may be\n" +
		"re-read from disk.\n\n"
}

// backgroundTable is the report of the background at every size.
func backgroundTable(sizes []int, points []bgPoint, waking string) string {
	var b strings.Builder
	b.WriteString("## Background CPU at scale\n\n")
	fmt.Fprintf(&b, "The agent's CPU per second on pipes, nobody fetching, over %.0f s: "+
		"the once-a-minute work is included.\n"+
		"The window is the agent's second minute, from %.0f s after its start.\n"+
		"The first minute carries what is done once a start: "+
		"the collections that free start-up's allocations,\n"+
		"and buffers first grown to the host's size.\n"+
		"The agent runs at default intervals, every source "+
		"at full rate: the first idle_after has not passed.\n"+
		"It runs with `keep_files = yes`, so the generated "+
		"files are kept open as procfs and sysfs files are.\n",
		bgWindow.Seconds(), steadySettle.Seconds())
	b.WriteString("The floors are a C program and a Go goroutine that only re-read the same files at the same\n" +
		"intervals, on the same tree, parsing nothing.\n" +
		"Their plan is what each collector read in a minute of samples (inotify).\n" +
		"They read each file at the cadence the collector " +
		"read it: every sample, every tenth, once a minute.\n" +
		"They read from kept fds, and make the statfs calls of the filesystem collector.\n" +
		"\"Nothing read\" is the agent with `idle_after = 5`, in its second minute as well, " +
		"unread since it started.\n" +
		"Every source then samples at ten times its interval.\n" +
		"What it refreshes once a minute at full rate, it " +
		"then refreshes every ten minutes: not in the window.\n" +
		"Network's state, every 100 s, is in it.\n" + treeWhere())
	b.WriteString("The generated files do not change between samples.\n" +
		"A collector that reads its text back unchanged repeats its sample (kernel.Memo, Builder.Again).\n" +
		"So these rows are the agent's cost on a host where nothing moves.\n" +
		"What each sample costs when its files did change " +
		"is the \"built in full\" column of the next table.\n" +
		"Its sum is in that table's last row.\n\n" +
		"| host | agent | C floor | Go floor | agent / Go floor (target ≤ 1.5) | agent / C floor (≤ 3) " +
		"| nothing read | nothing read / agent (≤ 0.2) |\n" +
		"|---|---|---|---|---|---|---|---|\n")
	for i, p := range points {
		g, c, q := ratio(p.agent, p.goFloor), ratio(p.agent, p.cFloor), ratio(p.idle, p.agent)
		fmt.Fprintf(&b, "| %dx | %s | %s | %s | %.1f %s | %.1f %s | %s | %.2f %s |\n", sizes[i], us(p.agent),
			us(p.cFloor), us(p.goFloor), g, verdict(g <= 1.5), c, verdict(c <= 3), us(p.idle), q,
			verdict(q <= 0.2))
	}
	b.WriteString(waking)
	b.WriteString("\n### Each collector's cost per sample at scale\n\n" +
		"CPU of one sample against the synthetic tree, in process, after the first sample, two ways.\n" +
		"As the agent samples it: a minute of samples, where " +
		"the text unchanged repeats and what is due is read.\n" +
		"Built in full: nothing to repeat, every value parsed and set, as when every file changed.\n" +
		"The table gives the cost per instance of its largest " +
		"instance domain at the largest size, built in full.\n" +
		"It gives the collector's share of the background at its interval, both ways.\n" +
		"Collectors whose sources the generator does not write cost what failing costs.\n\n")
	b.WriteString("| collector | interval |")
	for _, s := range sizes {
		fmt.Fprintf(&b, " %dx per sample |", s)
	}
	last := len(points) - 1
	L := sizes[last]
	fmt.Fprintf(&b,
		" %dx built in full | instances at %dx | per instance in full at "+
			"%dx | per second at %dx | in full, per second at %dx |\n|---|---|",
		L, L, L, L, L)
	b.WriteString(strings.Repeat("---|", len(sizes)+5) + "\n")
	var sum, sumFull time.Duration
	for j, c := range points[last].costs {
		fmt.Fprintf(&b, "| %s | %s |", c.name, c.interval)
		for _, p := range points {
			fmt.Fprintf(&b, " %s |", us(p.costs[j].cpu))
		}
		per := "—"
		if c.instances > 0 {
			per = fmt.Sprintf("%.0f ns", float64(c.full.Nanoseconds())/float64(c.instances))
		}
		fmt.Fprintf(&b, " %s | %d | %s | %s | %s |\n", us(c.full), c.instances, per, us(c.perSec),
			us(c.fullSec))
		sum, sumFull = sum+c.perSec, sumFull+c.fullSec
	}
	// collector and interval, a cell per size, built in full, instances,
	// per instance: then the two sums.
	fmt.Fprintf(&b, "| all |%s %s | %s |\n", strings.Repeat(" |", 1+len(sizes)+3), us(sum), us(sumFull))
	return b.String()
}
