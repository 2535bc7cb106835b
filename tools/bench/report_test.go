package main

import (
	"strings"
	"testing"
	"time"
)

// tableCells is how many cells a markdown table line has.
func tableCells(line string) int {
	line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|")
	return strings.Count(line, "|") + 1
}

// checkTables fails t for every table row whose cells differ in number
// from its header's: such a row renders wrong or not at all.
func checkTables(t *testing.T, section, text string) {
	t.Helper()
	header, want := "", 0
	for i, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = ""
			continue
		}
		if header == "" {
			header, want = line, tableCells(line)
			continue
		}
		if got := tableCells(line); got != want {
			t.Errorf("%s, line %d: %d cells under a %d-column header:\n%s\n%s", section, i+1, got, want, header, line)
		}
	}
}

// checkHeadings fails t for a first-level heading in a section: the
// document has one, its title, which the targets report writes.
func checkHeadings(t *testing.T, section, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "# ") {
			t.Errorf("%s: a first-level heading below the title: %q", section, line)
		}
	}
}

func fakeCosts() []collectorCost {
	return []collectorCost{
		{name: "cpu", interval: time.Second, cpu: time.Microsecond, full: 2 * time.Microsecond, instances: 4,
			perSec: time.Microsecond, fullSec: 2 * time.Microsecond},
		{name: "filesys", interval: 10 * time.Second, cpu: 50 * time.Microsecond, full: 60 * time.Microsecond,
			perSec: 5 * time.Microsecond, fullSec: 6 * time.Microsecond},
	}
}

// Every section make bench writes into docs/performance.md has tables
// whose rows all have their header's columns.
func TestReportTablesRender(t *testing.T) {
	pdu := pduResult{name: "agent", metrics: 42, fetches: 10, p50: time.Microsecond, cpuPerFetch: time.Microsecond,
		pacedCPU: 2 * time.Microsecond, bgPerSec: 500 * time.Microsecond, rssKB: 1024}
	rows := pduRows{pdu, pdu, pdu, pdu, pdu, pdu}
	run := e2eResult{clients: 1, fetches: 10, p50: 1, p99: 2, perSec: 100}
	e := e2e{run, run, run, run, run}
	targets := format(rows, time.Microsecond, time.Microsecond, e, 5*time.Second)
	checkTables(t, "targets", targets)
	if !strings.HasPrefix(targets, "# pmdahostcache performance\n") {
		t.Errorf("targets: the document's title is not its first line")
	}
	checkHeadings(t, "targets", strings.TrimPrefix(targets, "# "))

	sizes := []int{1, 4, 16}
	var points []bgPoint
	for range sizes {
		points = append(points, bgPoint{agent: 600 * time.Microsecond, idle: 80 * time.Microsecond,
			cFloor: 200 * time.Microsecond, goFloor: 300 * time.Microsecond, costs: fakeCosts()})
	}
	waking := wakingSection(wakeFloors{c: 50 * time.Microsecond, goOne: 150 * time.Microsecond, cRuns: 1, goOneRuns: 3},
		points[0])
	scale := backgroundTable(sizes, points, waking)
	checkTables(t, "scale", scale)
	checkHeadings(t, "scale", scale)

	collectors := collectorsReport(fakeCosts())
	checkTables(t, "collectors", collectors)
	checkHeadings(t, "collectors", collectors)

	agents := readerAgents("bin/pmdahostcache", "")
	figs := make([][]readerFigures, len(agents))
	for i, ag := range agents {
		figs[i] = make([]readerFigures, len(readerScenarios))
		for s, sc := range readerScenarios {
			if sc.phases == nil && !ag.alone {
				continue
			}
			figs[i][s].cpu = []time.Duration{time.Millisecond}
			figs[i][s].latency = []time.Duration{100 * time.Microsecond}
		}
	}
	readers := readersReport(agents, figs, 38, 3, 20*time.Second)
	checkTables(t, "readers", readers)
	checkHeadings(t, "readers", readers)
	if n := strings.Count(readers, "| no reader |"); n != 1 {
		t.Errorf("readers: %d rows with no reader, want one (the agent with its defaults)", n)
	}

	standIn := standInReport([]standInRow{{standInHost{name: "this host"}, pdu, pdu}}, 1299, 3, 5*time.Second)
	checkTables(t, "standin", standIn)
	checkHeadings(t, "standin", standIn)
}
