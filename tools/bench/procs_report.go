package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

// procsLatencyTargets are the fetch p50 targets: pmdaproc's p50
// over hostcache's at least this, by the number of extra processes.
var procsLatencyTargets = map[int]float64{1000: 10, 10000: 20}

// procsRSSLimit is hostcache's RSS target at 10,000 processes.
const (
	procsRSSLimitMB = 100
	procsRSSAt      = 10000
)

// pmErrNames names the errors a fetch through pmcd may carry here.
var pmErrNames = map[int]string{-12353: "PM_ERR_TIMEOUT", -12366: "PM_ERR_IPC", -12368: "PM_ERR_EOF",
	-12386: "PM_ERR_NOAGENT", -12389: "PM_ERR_AGAIN", -13394: "PM_ERR_PMDANOTREADY"}

func pmErrName(code int) string {
	if name, ok := pmErrNames[code]; ok {
		return name
	}
	return fmt.Sprint(code)
}

// span renders a duration at a precision fit for its size.
func span(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// times renders a ratio, "–" when it has no denominator.
func times(num, den float64) string {
	if den <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", num/den)
}

func mb(bytes float64) string { return fmt.Sprintf("%.1f MB", bytes/(1<<20)) }

func passMiss(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

// cells are one size's four cells of a row: hostcache, pmdaproc, ratio, target.
type cells [4]string

// procsRow is one figure's row: its name and each size's cells.
type procsRow struct {
	figure string
	sizes  []cells
}

// latencyCell is an agent's latency figure, with its errors when any.
func latencyCell(f fetchFigures, d time.Duration) string {
	if f.errors == 0 {
		return span(d)
	}
	if f.errors == f.fetches {
		return fmt.Sprintf("every fetch failed (%s)", pmErrName(f.status))
	}
	return fmt.Sprintf("%s (%d failed: %s)", span(d), f.errors, pmErrName(f.status))
}

// latencyRow compares one latency of both agents: the ratio is how many
// times faster hostcache answers.
func latencyRow(figure string, run procsRun, of func(fetchFigures) time.Duration, target bool) procsRow {
	row := procsRow{figure: figure}
	for _, s := range run.sizes {
		hc, pr := s.fetch.hostcache, s.fetch.proc
		c := cells{latencyCell(hc, of(hc)), latencyCell(pr, of(pr)),
			times(float64(of(pr)), float64(of(hc))), ""}
		if want, ok := procsLatencyTargets[s.extra]; ok && target {
			// Met when hostcache answers without a failure and faster by
			// the factor, or answers where pmdaproc failed every fetch.
			ok := hc.errors == 0 && (pr.errors == pr.fetches || float64(of(pr)) >= want*float64(of(hc)))
			c[3] = fmt.Sprintf("≥ %.0f×: %s", want, passMiss(ok))
		}
		row.sizes = append(row.sizes, c)
	}
	return row
}

// firstRow compares the agents' first fetches, each failed or not.
func firstRow(run procsRun) procsRow {
	row := procsRow{figure: "first fetch, the children just started"}
	cell := func(f fetchFigures) string {
		if f.firstErr {
			return fmt.Sprintf("%s, failed: %s", span(f.first), pmErrName(f.status))
		}
		return span(f.first)
	}
	for _, s := range run.sizes {
		hc, pr := s.fetch.hostcache, s.fetch.proc
		row.sizes = append(row.sizes, cells{cell(hc), cell(pr),
			times(float64(pr.first), float64(hc.first)), ""})
	}
	return row
}

// procsRows are the table's rows.
func procsRows(run procsRun) []procsRow {
	rows := []procsRow{
		latencyRow("fetch p50 (ratio: pmdaproc ÷ hostcache)", run,
			func(f fetchFigures) time.Duration { return f.p(0.5) }, true),
		latencyRow("fetch p99", run, func(f fetchFigures) time.Duration { return f.p(0.99) }, false),
		firstRow(run),
	}
	cached := procsRow{figure: "fetch p50, hostcache answering from its cache (a second fetch at once)"}
	fetches, answered, cpu := procsRow{figure: "fetches: all, failed; hostcache's that had proc sampled anew"},
		procsRow{figure: "processes answered (the last good fetch)"},
		procsRow{figure: "agent CPU per fetch, idle CPU subtracted (pmdaproc ÷ hostcache)"}
	for _, s := range run.sizes {
		hc, pr := s.fetch.hostcache, s.fetch.proc
		again := s.fetch.cached
		cached.sizes = append(cached.sizes, cells{latencyCell(again, again.p(0.5)), latencyCell(pr, pr.p(0.5)),
			times(float64(pr.p(0.5)), float64(again.p(0.5))), ""})
		fetches.sizes = append(fetches.sizes, cells{
			fmt.Sprintf("%d, %d; %d", hc.fetches, hc.errors, s.fetch.sampled),
			fmt.Sprintf("%d, %d", pr.fetches, pr.errors), "", ""})
		answered.sizes = append(answered.sizes, cells{fmt.Sprint(hc.values), fmt.Sprint(pr.values),
			fmt.Sprintf("%d in /proc", s.procsSeen), ""})
		cpu.sizes = append(cpu.sizes, cells{span(hc.cpu), span(pr.cpu),
			times(float64(pr.cpu), float64(hc.cpu)), ""})
	}
	rows = append(rows, cached, fetches, answered, cpu)
	rows = append(rows, transportRows(run)...)
	rows = append(rows, backgroundRows(run)...)
	return append(rows, memoryRows(run)...)
}

// transportRows split hostcache's fetch into the agent's answer and the
// rest, pmcd's and the client's handling of the reply, which pmdaproc's
// fetch pays too: pmdaproc's p50 over that rest bounds the ratio any
// agent could reach.
func transportRows(run procsRun) []procsRow {
	own := procsRow{figure: "hostcache's fetch in the cache row's run, mean: its own answer " +
		"(control.fetch.answer_time) of the whole"}
	rest := procsRow{figure: "pmcd's and the client's part of it; pmdaproc's p50 ÷ that part"}
	for _, s := range run.sizes {
		pr := s.fetch.proc
		part := max(s.fetch.whole-s.fetch.answer, 0)
		own.sizes = append(own.sizes, cells{fmt.Sprintf("%s of %s", span(s.fetch.answer), span(s.fetch.whole)),
			"", "", ""})
		rest.sizes = append(rest.sizes, cells{span(part), "", times(float64(pr.p(0.5)), float64(part)), ""})
	}
	return []procsRow{own, rest}
}

// backgroundRows compare hostcache's idle CPU with the floor's: the
// whole agent's, and what the children add to each.
func backgroundRows(run procsRun) []procsRow {
	whole := procsRow{figure: "CPU per s, idle, default intervals (ratio: hostcache ÷ floor)"}
	floor := procsRow{figure: "floor: a Go loop doing the proc sample's reads each 10 s, CPU per s"}
	added := procsRow{figure: "CPU per s the children add, over the no-children window (hostcache ÷ floor)"}
	samples := procsRow{figure: "proc samples in the idle window: all, for fetches"}
	for _, s := range run.sizes {
		bg := s.bg
		whole.sizes = append(whole.sizes, cells{span(bg.hostcache), span(bg.proc),
			times(float64(bg.hostcache), float64(bg.floor)), "≤ 1×: " + passMiss(bg.hostcache <= bg.floor)})
		floor.sizes = append(floor.sizes, cells{span(bg.floor), "", "", ""})
		hcAdded, floorAdded := bg.hostcache-run.base.hostcache, bg.floor-run.base.floor
		added.sizes = append(added.sizes, cells{span(hcAdded), "", times(float64(hcAdded), float64(floorAdded)),
			"≤ 1×: " + passMiss(hcAdded <= floorAdded)})
		samples.sizes = append(samples.sizes, cells{fmt.Sprintf("%d, %d", bg.after.samples-bg.before.samples,
			bg.after.fetchSamples-bg.before.fetchSamples), "", "", ""})
	}
	return []procsRow{whole, floor, added, samples}
}

// memoryRows give both agents' RSS and hostcache's proc history, now and
// projected to a history of its full span at this size.
func memoryRows(run procsRun) []procsRow {
	rss := procsRow{figure: "RSS (ratio: hostcache ÷ pmdaproc)"}
	hist := procsRow{figure: "hostcache's proc history: bytes, samples"}
	full := procsRow{figure: "the same over its full span, projected: history, RSS"}
	for _, s := range run.sizes {
		hcBytes, prBytes := float64(s.hcRSS)*1024, float64(s.procRSS)*1024
		c := cells{mb(hcBytes), mb(prBytes), times(hcBytes, prBytes), ""}
		projected := projectHistory(run.base, s.bg)
		fullRSS := hcBytes + projected - float64(s.bg.after.historyBytes)
		f := cells{mb(projected) + ", RSS " + mb(fullRSS), "", "", ""}
		if s.extra == procsRSSAt {
			c[3] = fmt.Sprintf("≤ %d MB: %s", procsRSSLimitMB, passMiss(hcBytes <= procsRSSLimitMB<<20))
			f[3] = fmt.Sprintf("≤ %d MB: %s", procsRSSLimitMB, passMiss(fullRSS <= procsRSSLimitMB<<20))
		}
		rss.sizes = append(rss.sizes, c)
		hist.sizes = append(hist.sizes, cells{fmt.Sprintf("%s, %d", mb(float64(s.bg.after.historyBytes)),
			s.bg.after.historySamples), "", "", ""})
		full.sizes = append(full.sizes, f)
	}
	return []procsRow{rss, hist, full}
}

// projectHistory estimates the proc history's bytes once it spans its
// full depth of samples at this size: each sample the window added costs
// what the history grew by over them, plus, once the history is full,
// the sample it dropped for each (one of the no-children window's).
func projectHistory(base, bg background) float64 {
	added := bg.after.samples - bg.before.samples
	if added <= 0 || bg.after.historySamples == 0 {
		return float64(bg.after.historyBytes)
	}
	perSample := float64(bg.after.historyBytes-bg.before.historyBytes) / float64(added)
	if bg.after.historySamples <= bg.before.historySamples && base.after.historySamples > 0 {
		perSample += float64(base.after.historyBytes) / float64(base.after.historySamples)
	}
	depth := float64(bg.after.historySpan) / procInterval.Seconds()
	// The histories' budget shortens the widest rather than grow past it.
	return min(max(perSample*depth, float64(bg.after.historyBytes)), engine.DefaultHistoryBudget)
}

// groupNames writes metric names by their parent: "a.b.{c, d}, a.e.{f}".
func groupNames(names []string) string {
	var parents []string
	leaves := map[string][]string{}
	for _, name := range names {
		parent, leaf := "", name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			parent, leaf = name[:i], name[i+1:]
		}
		if leaves[parent] == nil {
			parents = append(parents, parent)
		}
		leaves[parent] = append(leaves[parent], leaf)
	}
	groups := make([]string, len(parents))
	for i, parent := range parents {
		groups[i] = strings.Join(leaves[parent], ", ")
		if parent != "" {
			groups[i] = parent + ".{" + groups[i] + "}"
		}
	}
	return strings.Join(groups, ", ")
}

// procsReport writes the section of docs/performance.md.
func procsReport(run procsRun) string {
	var b strings.Builder
	b.WriteString("## Processes: hostcache.proc against pmdaproc\n\n")
	b.WriteString("Both agents run in the system pmcd as installed, side by side in one run (`bench procs`).\n" +
		"The bench adds sleeping children (`/bin/sleep`) to the host, then fetches at once.\n" +
		"One libpcp client (`tools/bench/procfetch`) fetches as root over pmcd's unix socket.\n" +
		"Its fetches take turns: hostcache's twins, then pmdaproc's metrics, every process each time.\n" +
		"The first fetch is the context's first, the children just started.\n" +
		"An idle window follows, nobody fetching from the bench, with the floor running beside the agents.\n" +
		"The floor lists /proc and reads each process's stat, status, statm, io and schedstat every 10 s.\n" +
		"It also stats each process's directory, and reads a new process's cmdline,\n" +
		"as the proc sample does.\n" +
		"It parses nothing.\n" +
		"CPU is the threads' schedstat run time, in ns.\n\n")
	fmt.Fprintf(&b, "Columns fetched, pcp-ps's (%d): %s.\n", len(run.columns), groupNames(run.columns))
	if len(run.left) > 0 {
		fmt.Fprintf(&b, "Left out, no hostcache twin yet: %s.\n", groupNames(run.left))
	}
	f := run.facts
	fmt.Fprintf(&b, "\nMachine: %d CPUs, Linux %s, pid_max %d, %d processes before the children.\n"+
		"Load averages (1, 5, 15 min): %s at the start, %s at the end.\n"+
		"Agents: pmdahostcache (PID %d) and pmdaproc (PID %d), both started by pmcd.\n"+
		"hostcache's process groups the bench does not read were slowed before it began "+
		"(waited %s).\n"+
		"Each agent gets %d fetches a size at most (fewer when pmdaproc is slow).\n"+
		"Each idle window lasts %s, at a phase between the proc sample's and the floor's.\n"+
		"The no-children window's CPU per s: hostcache %s, pmdaproc %s, floor %s.\n\n",
		f.cpus, f.kernel, f.pidMax, f.baseProcs, f.loadBefore, f.loadAfter, f.hostcachePID, f.procPID,
		span(f.groupsWait.Round(time.Second)), f.fetchesPerAgent, run.base.window,
		span(run.base.hostcache), span(run.base.proc), span(run.base.floor))
	b.WriteString("| figure |")
	for _, s := range run.sizes {
		n := thousands(s.extra)
		fmt.Fprintf(&b, " hostcache, %s | pmdaproc, %s | ratio | target |", n, n)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|---|---|---|", len(run.sizes)) + "\n")
	for _, row := range procsRows(run) {
		b.WriteString("| " + row.figure + " |")
		for _, c := range row.sizes {
			for _, cell := range c {
				if cell != "" {
					b.WriteString(" " + cell)
				}
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\nThe latency and CPU ratios say how many times less hostcache takes.\n" +
		"hostcache answers from samples at most `fresh_within` (20 ms) old.\n" +
		"A fetch that finds the proc sample older has it sampled anew.\n" +
		"It waits for it unless three of its last four samples took longer than `fetch_wait` (100 ms).\n" +
		"The cache row's client fetches hostcache twice in a row, in a run of its own after the others:\n" +
		"the second fetch finds the sample the first had taken, and answers from it.\n" +
		"The projection scales the bytes each idle-window sample added to the history's full depth,\n" +
		"within the histories' default budget (`history_max_mb`, 128 MB).\n")
	return b.String()
}

// thousands writes n with a comma between each three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
