package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"
)

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/1e3) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// pduRows are the agents measured on pipes.
type pduRows struct {
	hc, hcCache, hcQuiet, goFloor, cFloor, lx pduResult
}

// format renders the measurements and the ratio table in markdown; idle
// is the window of each agent's idle CPU, which CPU per fetch subtracts.
func format(rows pduRows, tickerCPU, goTickerCPU time.Duration, e e2e, idle time.Duration) string {
	hc, hcCache, hcQuiet := rows.hc, rows.hcCache, rows.hcQuiet
	goFloor, cFloor, lx := rows.goFloor, rows.cFloor, rows.lx
	var b strings.Builder
	host, _ := hostname()
	fmt.Fprintf(&b, "# pmdahostcache performance\n\n"+
		"Measured %s on %s (%d CPUs, %s), one run, both agents side by side.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), host, runtime.NumCPU(), runtime.GOARCH)
	fmt.Fprintf(&b, "Metric set: CPU (all and per CPU), memory, load, disk and network, %d metrics.\n", hc.metrics)
	b.WriteString("Each agent serves the same quantities (`tools/bench/metrics.go`).\n\n")
	b.WriteString(figureKey(idle))

	b.WriteString("## PDU level (agent on pipes, as pmcd runs it)\n\n")
	fmt.Fprintf(&b, "CPU per fetch is measured back to back and paced.\n"+
		"Back to back, the next request goes as soon as the reply is read.\n"+
		"Paced, %d fetches go %s apart, the agent idle in between, as pmcd's clients usually fetch.\n"+
		"Both subtract the agent's CPU per s, %s idle.\n"+
		"The latency percentiles are of the back-to-back run.\n\n", pacedN, pacedGap, idle)
	fmt.Fprintf(&b, "| agent | fetches | p50 | p99 | p99.9 | CPU per fetch, back to back | CPU per fetch, paced "+
		"| CPU per s, %s idle | RSS |\n|---|---|---|---|---|---|---|---|---|\n", idle)
	for _, r := range []pduResult{hc, hcCache, hcQuiet, goFloor, cFloor, lx} {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %.1f MB |\n", r.name, r.fetches, us(r.p50),
			us(r.p99), us(r.p999), us(r.cpuPerFetch), us(r.pacedCPU), us(r.bgPerSec), float64(r.rssKB)/1024)
	}
	b.WriteString("\n## End to end (pmFetch through pmcd, libpcp client)\n\n")
	b.WriteString("| what | clients | fetches | errors | p50 | p99 | fetches/s |\n|---|---|---|---|---|---|---|\n")
	for _, row := range []struct {
		what string
		r    e2eResult
	}{{"sample.long.one (floor)", e.floor}, {"hostcache set", e.ours1}, {"pmdalinux set", e.linux1},
		{"hostcache set", e.oursN}, {"pmdalinux set", e.linuxN}} {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f µs | %.1f µs | %.0f |\n", row.what, row.r.clients,
			row.r.fetches, row.r.errors, row.r.p50, row.r.p99, row.r.perSec)
	}

	b.WriteString("\n## Targets\n\n| target | measured | limit | verdict |\n|---|---|---|---|\n")
	for _, m := range []struct {
		how string
		of  func(pduResult) time.Duration
	}{
		{"back to back", func(r pduResult) time.Duration { return r.cpuPerFetch }},
		{"paced", func(r pduResult) time.Duration { return r.pacedCPU }},
	} {
		ratio := func(r pduResult) float64 { return float64(m.of(r)) / float64(m.of(lx)) }
		fmt.Fprintf(&b,
			"| agent CPU per fetch vs pmdalinux, %s (sampling parked) | %.3f (%s / %s) | ≤ 0.050 | %s |\n",
			m.how, ratio(hcQuiet), us(m.of(hcQuiet)), us(m.of(lx)), verdict(ratio(hcQuiet) <= 0.05))
		fmt.Fprintf(&b, "| the same, sampling live | %.3f (%s / %s) | ≤ 0.050 | %s |\n",
			ratio(hc), us(m.of(hc)), us(m.of(lx)), verdict(ratio(hc) <= 0.05))
		fmt.Fprintf(&b, "| (floor: a C agent that answers nothing, %s) | %.3f (%s / %s) | | |\n", m.how,
			ratio(cFloor), us(m.of(cFloor)), us(m.of(lx)))
	}
	writeFreshTargets(&b, rows, tickerCPU)
	p50Ratio := e.ours1.p50 / e.floor.p50
	fmt.Fprintf(&b, "| end-to-end p50 vs sample floor | %.2f× (%.1f / %.1f µs) | ≤ 1.30× | %s |\n", p50Ratio,
		e.ours1.p50, e.floor.p50, verdict(p50Ratio <= 1.3))
	tput := e.oursN.perSec / e.linuxN.perSec
	fmt.Fprintf(&b, "| %d-client fetches/s vs pmdalinux | %.2f× (%.0f / %.0f) | ≥ 3× | %s |\n", e.oursN.clients,
		tput, e.oursN.perSec, e.linuxN.perSec, verdict(tput >= 3))
	bg := float64(hc.bgPerSec) / float64(lx.cpuPerFetch)
	fmt.Fprintf(&b, "| CPU per s, %s idle, vs one pmdalinux fetch | %.2f (%s / %s) | < 1 | %s |\n", idle, bg,
		us(hc.bgPerSec), us(lx.cpuPerFetch), verdict(bg < 1))
	fmt.Fprintf(&b, "| (floor: a C program re-reading the files the collectors keep open, at their intervals, "+
		"and making their statfs calls, parsing nothing, over %s) | %.2f (%s / %s) | | |\n",
		idle, float64(tickerCPU)/float64(lx.cpuPerFetch), us(tickerCPU), us(lx.cpuPerFetch))
	fmt.Fprintf(&b, "| (the same reads from one Go goroutine on a timer: the Go floor) | %.2f (%s / %s) | | |\n",
		float64(goTickerCPU)/float64(lx.cpuPerFetch), us(goTickerCPU), us(lx.cpuPerFetch))
	// A second comparison where both sides pay for waking from idle: our
	// sampler wakes every second, a paced pmdalinux fetch wakes it too.
	fmt.Fprintf(&b, "| (CPU per s, %s idle, vs one paced pmdalinux fetch, both waking from idle) "+
		"| %.2f (%s / %s) | | |\n", idle, float64(hc.bgPerSec)/float64(lx.pacedCPU), us(hc.bgPerSec),
		us(lx.pacedCPU))
	rss := float64(hc.rssKB) / 1024
	fmt.Fprintf(&b, "| RSS | %.1f MB | ≤ 25 MB | %s |\n", rss, verdict(rss <= 25))
	errs := e.floor.errors + e.ours1.errors + e.linux1.errors + e.oursN.errors + e.linuxN.errors
	fmt.Fprintf(&b, "| fetch errors in every run | %d | 0 | %s |\n", errs, verdict(errs == 0))
	b.WriteString("\nThe floor rows are what any agent or any sampler costs on this machine.\n" +
		"An agent costs at least the C one that answers nothing.\n" +
		"A sampler costs at least the C one that only re-reads the files.\n" +
		"`docs/limits.md` explains each MISSED target.\n")
	b.WriteString("\nReproduce: `make bench` (root; installs what it needs and writes this file).\n")
	return b.String()
}

// writeFreshTargets compares the fetches that sample for freshness with
// pmdalinux, which reads its files at every fetch, and with the sample
// floor: the C agent that answers nothing plus the C program's read of
// every one-second file once (the ticker's CPU for a second).
func writeFreshTargets(b *strings.Builder, rows pduRows, tickerCPU time.Duration) {
	for _, m := range []struct {
		how string
		of  func(pduResult) time.Duration
	}{
		{"back to back", func(r pduResult) time.Duration { return r.cpuPerFetch }},
		{"paced", func(r pduResult) time.Duration { return r.pacedCPU }},
	} {
		hc, lx := m.of(rows.hc), m.of(rows.lx)
		fmt.Fprintf(b, "| agent CPU per fetch vs pmdalinux, %s, samples at most fresh_within (20 ms) old "+
			"| %.3f (%s / %s) | ≤ 1.000 | %s |\n", m.how, float64(hc)/float64(lx), us(hc), us(lx),
			verdict(hc <= lx))
		floor := m.of(rows.cFloor) + tickerCPU
		fmt.Fprintf(b, "| (the same vs the sample floor: the C agent's round trip "+
			"and one read of the one-second files, %s) | %.2f (%s / %s) | | |\n",
			us(floor), float64(hc)/float64(floor), us(hc), us(floor))
		fmt.Fprintf(b,
			"| (the same answering from the cache as it is, fresh_within = 0) | %.3f (%s / %s) | | |\n",
			float64(m.of(rows.hcCache))/float64(lx), us(m.of(rows.hcCache)), us(lx))
	}
}
