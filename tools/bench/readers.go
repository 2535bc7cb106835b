package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// readerScenario is a set of periodic readers: each a pmcd client that
// fetches one metric of every source once a second, at its phase past the
// whole second. An agent that samples before each reader's fetch pays one
// extra sample per source for each phase beyond the first.
type readerScenario struct {
	name   string
	phases []time.Duration
}

// The phases avoid half past the second, where the fixed grid samples:
// with one reader there, no agent would need a sample of its own.
var readerScenarios = []readerScenario{
	{"no reader", nil},
	{"1 reader, 1 phase", []time.Duration{100 * time.Millisecond}},
	{"4 readers, 4 phases", []time.Duration{100 * time.Millisecond, 350 * time.Millisecond,
		600 * time.Millisecond, 850 * time.Millisecond}},
}

// readerFigures is one agent under one scenario: its CPU per second of
// each round, and the service time of every fetch in the windows.
type readerFigures struct {
	cpu     []time.Duration
	latency []time.Duration
}

// readerAgent is one agent measured: a build and the configuration it
// runs with. alone says whether it runs with no reader too: with none,
// the fixed grid and the agent that follows its readers sample alike, so
// only the latter's background is measured, once.
type readerAgent struct {
	label, bin, conf string
	alone            bool
}

// readerAgents are the agents runReaders measures: this build on the
// fixed grid (reader_phases = 0) and following its readers
// (reader_phases = 8, the default, said so a changed default does not
// change the figures), and before, when given, with its own defaults (an
// older build may not know the key).
func readerAgents(agent, before string) []readerAgent {
	var as []readerAgent
	if before != "" {
		as = append(as, readerAgent{filepath.Base(before) + " (before)", before, "", true})
	}
	name := filepath.Base(agent)
	return append(as, readerAgent{name + ", fixed grid", agent, "reader_phases = 0\n", false},
		readerAgent{name + ", following readers", agent, "reader_phases = 8\n", true})
}

// runReaders measures the agents' CPU per second at their default
// intervals on this host, on pipes as pmcd runs them, with no reader, one
// reader and four readers at distinct phases: the readers' fetches cost
// the same to every agent, so the difference between the slopes of the
// fixed grid and of the agent that follows its readers is what the extra
// samples cost. Each run lets the readers fetch for settle (the agent
// learns their phases) before its CPU is measured over window; agents and
// scenarios alternate in each round. PCP's Install and Remove signal
// every process of the agent's name, so nothing may install the agent
// meanwhile.
func runReaders(agent, before string, rounds int, settle, window time.Duration) (string, error) {
	pmids, err := onePerSource()
	if err != nil {
		return "", err
	}
	agents := readerAgents(agent, before)
	figs := make([][]readerFigures, len(agents))
	for i := range figs {
		figs[i] = make([]readerFigures, len(readerScenarios))
	}
	for r := 0; r < rounds; r++ {
		for s, sc := range readerScenarios {
			for a, ag := range agents {
				if sc.phases == nil && !ag.alone {
					continue
				}
				cpu, lat, err := readersRun(ag.bin, ag.conf, pmids, sc.phases, settle, window)
				if err != nil {
					return "", fmt.Errorf("%s, %s: %w", ag.label, sc.name, err)
				}
				figs[a][s].cpu = append(figs[a][s].cpu, cpu)
				figs[a][s].latency = append(figs[a][s].latency, lat...)
			}
		}
	}
	return readersReport(agents, figs, len(pmids), rounds, window), nil
}

// onePerSource is the PMID of one raw metric of every source the agent
// registers: a fetch of them all reads every source.
func onePerSource() ([]uint32, error) {
	env := engine.Env{Proc: "/proc", Sys: "/sys"}
	var pmids []uint32
	for _, reg := range collector.Registry() {
		c, err := reg.Factory(env)
		if err != nil {
			continue // a source this host lacks: the agent has none either
		}
		for _, d := range c.Source().Metrics {
			if d.Compute == nil {
				pmids = append(pmids, pmidOf(d.ID))
				break
			}
		}
	}
	if len(pmids) == 0 {
		return nil, fmt.Errorf("no source with a raw metric")
	}
	return pmids, nil
}

func pmidOf(id cache.MetricID) uint32 { return 396<<22 | uint32(id) }

// readersRun starts an agent with its own instance-id directory and log
// (and conf's lines in its configuration),
// has the readers fetch through settle and window, and returns the
// agent's CPU per second over window and the fetches' service times.
func readersRun(bin, conf string, pmids []uint32, phases []time.Duration, settle,
	window time.Duration) (time.Duration, []time.Duration, error) {
	dir, err := os.MkdirTemp("", "hostcache-readers-")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hostcache.conf")
	if err := os.WriteFile(path, []byte("id_dir = "+dir+"\n"+conf), 0o644); err != nil {
		return 0, nil, err
	}
	a, err := driver.Start(bin,
		[]string{"-d", "396", "-l", filepath.Join(dir, "hostcache.log"), "-U", "root", "-c", path}, nil)
	if err != nil {
		return 0, nil, err
	}
	defer a.Close(5 * time.Second)
	if err := a.Send((&pmda.Profile{}).Append(nil)); err != nil {
		return 0, nil, err
	}
	rs := newReaderLoop(pmids, phases)
	if _, err := rs.until(a, time.Now().Add(settle)); err != nil {
		return 0, nil, agentFailed(err, filepath.Join(dir, "hostcache.log"))
	}
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	lat, err := rs.until(a, t0.Add(window))
	cpu, wall := procCPU(a.Pid())-cpu0, time.Since(t0)
	if err != nil {
		return 0, nil, agentFailed(err, filepath.Join(dir, "hostcache.log"))
	}
	return time.Duration(float64(cpu) / wall.Seconds()), lat, nil
}

// agentFailed adds the end of the agent's log to an error of its pipes.
func agentFailed(err error, log string) error {
	data, _ := os.ReadFile(log)
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	return fmt.Errorf("%w; the agent's log ends:\n%s", err, data)
}

// readerLoop plays the readers over one agent's pipes, as pmcd forwards
// its clients' fetches: one FETCH per reader, each with the reader's own
// client number in the header's from.
type readerLoop struct {
	phases  []time.Duration
	fetches [][]byte
}

func newReaderLoop(pmids []uint32, phases []time.Duration) *readerLoop {
	l := &readerLoop{phases: phases}
	for i := range phases {
		pdu := (&pmda.Fetch{PMIDs: pmids}).Append(nil)
		binary.BigEndian.PutUint32(pdu[8:], uint32(20+i))
		l.fetches = append(l.fetches, pdu)
	}
	return l
}

// until fetches at each reader's phase until end and returns the
// fetches' service times.
func (l *readerLoop) until(a *driver.Agent, end time.Time) ([]time.Duration, error) {
	var lat []time.Duration
	for {
		at, i := l.next(time.Now())
		if i < 0 || at.After(end) {
			time.Sleep(time.Until(end))
			return lat, nil
		}
		time.Sleep(time.Until(at))
		d, err := request(a, l.fetches[i])
		if err != nil {
			return lat, err
		}
		lat = append(lat, d)
	}
}

// next is the first reader's fetch after now, and which reader's; -1
// when there is no reader.
func (l *readerLoop) next(now time.Time) (time.Time, int) {
	best, which := time.Time{}, -1
	for i, p := range l.phases {
		at := now.Truncate(time.Second).Add(p)
		if !at.After(now) {
			at = at.Add(time.Second)
		}
		if which < 0 || at.Before(best) {
			best, which = at, i
		}
	}
	return best, which
}

// readersReport renders the section of docs/performance.md.
func readersReport(agents []readerAgent, figs [][]readerFigures, sources, rounds int, window time.Duration) string {
	var b strings.Builder
	b.WriteString("## Readers at distinct phases\n\n")
	fmt.Fprintf(&b, "The agent runs on pipes at its default intervals on this host, "+
		"%d rounds of %s per row (median CPU).\n"+
		"Periodic readers fetch one metric of each of its %d sources once a second, each at its own phase\n"+
		"(`bench readers`).\n"+
		"The agent runs on the fixed grid (`reader_phases = 0`) "+
		"and following its readers (`reader_phases = 8`).\n"+
		"An agent that samples just before each reader's fetch takes one extra sample per source for each\n"+
		"phase beyond the first.\n"+
		"With no reader both sample on the same grid, so that row is measured once, with the defaults.\n"+
		"It is this host's background at default intervals, in the agent's first minute.\n\n", rounds, window,
		sources)
	b.WriteString("| agent | readers | CPU per s | fetch p50 | fetch p99 |\n|---|---|---|---|---|\n")
	slopes := make([]time.Duration, len(agents))
	for i, ag := range agents {
		for s, sc := range readerScenarios {
			if len(figs[i][s].cpu) == 0 {
				continue // not measured: see readerAgent.alone
			}
			lat := slices.Clone(figs[i][s].latency)
			slices.Sort(lat)
			p50, p99 := "-", "-"
			if len(lat) > 0 {
				p50, p99 = us(lat[len(lat)/2]), us(lat[len(lat)*99/100])
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", ag.label, sc.name,
				us(medianDuration(figs[i][s].cpu)), p50, p99)
		}
		one, four := medianDuration(figs[i][1].cpu), medianDuration(figs[i][2].cpu)
		slopes[i] = (four - one) / 3
	}
	b.WriteString("\n")
	for i, ag := range agents {
		fmt.Fprintf(&b, "- %s: each phase beyond the first costs %s of CPU per s (4 phases less 1, over 3; "+
			"its fetches included)\n", ag.label, us(slopes[i]))
	}
	n := len(agents)
	fmt.Fprintf(&b, "- the extra samples alone, the fetches' own cost taken away "+
		"(following readers less the fixed grid): %s per phase per s\n", us(slopes[n-1]-slopes[n-2]))
	return b.String()
}
