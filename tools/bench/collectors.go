package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// collectorCost is one collector's sample on one tree.
type collectorCost struct {
	name     string
	interval time.Duration
	// cpu is this process's CPU per sample as the agent samples (a text
	// read back unchanged repeats the sample before); full is the CPU of
	// a sample built in full, every value parsed and set, as when every
	// file changed.
	cpu, full       time.Duration
	perSec, fullSec time.Duration // cpu and full spread over its interval
	instances       int           // of its largest instance domain
	files           []planEntry   // what it reads, and how often
}

// planSamples is how many samples the reading plan watches: a minute of
// them, so that what a collector reads every ten samples or once a
// minute shows at that cadence.
const planSamples = 60

// runCollectors times a sample of each registered collector against this
// machine's /proc and /sys (the process's CPU, not wall time) and, with
// before set, measures the idle CPU per second of that agent binary and
// of agent, alternately, on pipes as pmcd runs them.
func runCollectors(agent, before string, rounds int, idle time.Duration, nowConf string) (string, error) {
	costs, err := collectorCosts(200, engine.Env{Proc: "/proc", Sys: "/sys"})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(collectorsReport(costs))
	if before == "" {
		return b.String(), nil
	}
	a, o, err := idleAlternating(before, agent, rounds, idle, nowConf)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\n## Background CPU per second, idle, on pipes as pmcd runs the agent\n\n"+
		"%d alternating runs of %s each; medians.\n\n| agent | idle CPU per s |\n|---|---|\n"+
		"| before (%s) | %s |\n| now (%s%s) | %s |\n",
		rounds, idle, before, us(a), agent, confLabel(nowConf), us(o))
	return b.String(), nil
}

// collectorsReport is the section of docs/performance.md on each
// collector's cost on this machine; its `all` row is the collectors' own
// work a second, which the agent's background holds with its waking, the
// runtime and publishing.
func collectorsReport(costs []collectorCost) string {
	var b strings.Builder
	b.WriteString("## Each collector's cost per sample\n\n" +
		"CPU of one sample against this machine's /proc and /sys (200 samples, in process), two ways.\n" +
		"As the agent samples: a file read back unchanged repeats the sample before.\n" +
		"Built in full: every value parsed and set.\n" +
		"\"Per second\" is the sampled cost spread over the collector's default interval.\n" +
		"The `all` row sums it: the collectors' own work, without waking, the Go runtime or publishing.\n\n")
	b.WriteString("| collector | interval | CPU per sample | built in full | per second |\n|---|---|---|---|---|\n")
	var total time.Duration
	for _, c := range costs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", c.name, c.interval, us(c.cpu), us(c.full), us(c.perSec))
		total += c.perSec
	}
	fmt.Fprintf(&b, "| all | | | | %s |\n", us(total))
	return b.String()
}

// collectorCosts samples each registered collector against the tree env
// names: first a minute of samples with the reads watched, for the floors'
// plan, then, with the watch closed (inotify makes every read it watches
// dearer), the timed samples: n built in full.
func collectorCosts(n int, env engine.Env) ([]collectorCost, error) {
	ids, err := os.MkdirTemp("", "hostcache-ids-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ids)
	env.IDDir, env.Filter = ids, engine.Filter{}
	watch, err := watchOpens(env.Proc, env.Sys)
	if err != nil {
		return nil, err
	}
	var probes []*probe
	for _, reg := range collector.Registry() {
		open0 := openFiles()
		p, err := newProbe(reg, env)
		if err != nil {
			watch.Close()
			return nil, err
		}
		p.plan(watch)
		// Files kept open that no read event showed (procfs and sysfs
		// send none) are read at the collector's interval.
		for _, f := range newlyOpen(open0, env.Proc, env.Sys) {
			if !slices.ContainsFunc(p.cost.files, func(e planEntry) bool { return e.path == f }) {
				p.cost.files = append(p.cost.files, planEntry{p.interval, f})
			}
		}
		probes = append(probes, p)
	}
	watch.Close()
	var out []collectorCost
	for _, p := range probes {
		p.time(n)
		out = append(out, p.cost)
	}
	return out, nil
}

// probe is one collector sampled in this process as the agent samples it.
type probe struct {
	c        engine.Collector
	interval time.Duration
	schema   *cache.Schema
	bld      *cache.Builder
	now      time.Time
	part     *cache.Part
	cost     collectorCost
}

func newProbe(reg engine.Registration, env engine.Env) (*probe, error) {
	c, err := reg.Factory(env)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", reg.Name, err)
	}
	src := c.Source()
	schema, err := cache.NewSchema(src, borrowedInDoms(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", reg.Name, err)
	}
	p := &probe{c: c, interval: reg.Interval, schema: schema, now: time.Now()}
	if p.interval == 0 {
		p.interval = time.Second
	}
	p.bld = schema.NewBuilder(0, p.now)
	p.cost.name, p.cost.interval = reg.Name, p.interval
	p.sample() // builds instance tables, opens files
	return p, nil
}

// sample takes the next sample, one interval after the last.
func (p *probe) sample() {
	p.now = p.now.Add(p.interval)
	p.bld.Reset(p.now)
	p.c.Sample(p.bld, p.now) // a source this tree lacks costs what failing costs
	p.part, _ = p.bld.Part()
}

// plan watches a minute of samples: what the collector reads, and how
// often, plus the statfs calls it makes.
func (p *probe) plan(watch *openWatch) {
	watch.drain()
	reads := map[string]int{}
	for range planSamples {
		p.sample()
		for _, f := range watch.drain() {
			reads[f]++
		}
	}
	p.cost.files = cadence(reads, p.interval)
	if s, ok := p.c.(interface{ StatfsPaths() []string }); ok {
		for _, path := range s.StatfsPaths() {
			p.cost.files = append(p.cost.files, planEntry{p.interval, statfsPrefix + path})
		}
	}
}

// time measures a minute of samples as the agent takes them (a text read
// back unchanged repeats; what is due every tenth sample or once a minute
// counts at its share) and n samples built in full.
func (p *probe) time(n int) {
	cpu0 := selfCPU()
	for range planSamples {
		p.sample()
	}
	p.cost.cpu = (selfCPU() - cpu0) / planSamples
	cpu0 = selfCPU()
	for range n {
		// A second Reset, as after a sample that failed: the builder has
		// nothing to repeat, so every value is parsed and set, with its
		// buffers as warm as in the agent.
		p.bld.Reset(p.now)
		p.sample()
	}
	p.cost.full = (selfCPU() - cpu0) / time.Duration(n)
	perSec := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * float64(time.Second) / float64(p.interval))
	}
	p.cost.perSec, p.cost.fullSec = perSec(p.cost.cpu), perSec(p.cost.full)
	for _, d := range p.c.Source().InDoms {
		if p.part == nil {
			break
		}
		if in, ok := p.part.InDom(d.ID); ok {
			p.cost.instances = max(p.cost.instances, in.Len())
		}
	}
}

// cadence turns how many of planSamples samples read each file into the
// interval the file is read at: a whole number of the collector's.
func cadence(reads map[string]int, interval time.Duration) []planEntry {
	var plan []planEntry
	for path, n := range reads {
		plan = append(plan, planEntry{interval * time.Duration(max(planSamples/n, 1)), path})
	}
	slices.SortFunc(plan, func(a, b planEntry) int { return strings.Compare(a.path, b.path) })
	return plan
}

// planOf is the reading plan of the costs' collectors.
func planOf(costs []collectorCost) []planEntry {
	var plan []planEntry
	for _, c := range costs {
		plan = append(plan, c.files...)
	}
	return plan
}

// idleAlternating measures the idle CPU per second of two agents, rounds
// times each, alternately, and returns the medians.
func idleAlternating(before, now string, rounds int, idle time.Duration,
	nowConf string) (time.Duration, time.Duration, error) {
	var a, o []time.Duration
	for i := 0; i < rounds; i++ {
		for _, p := range []struct {
			path, conf string
			into       *[]time.Duration
		}{{before, "", &a}, {now, nowConf, &o}} {
			d, err := idleCPU(p.path, p.conf, idle)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %w", p.path, err)
			}
			*p.into = append(*p.into, d)
		}
	}
	return medianDuration(a), medianDuration(o), nil
}

// settle is how long an idle agent runs before its CPU is measured: past
// its first samples and, with a short idle_after, past its slowing down.
var settle = 3 * time.Second

// idleCPU starts an agent on pipes, lets it take its first samples and
// measures its CPU per second while nobody fetches.
func idleCPU(path, conf string, idle time.Duration) (time.Duration, error) {
	dir, err := os.MkdirTemp("", "hostcache-idle-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	// As pmcd starts it, with the log and instance ids out of the way of
	// an installed agent's.
	file := filepath.Join(dir, "hostcache.conf")
	if err := os.WriteFile(file, []byte("id_dir = "+dir+"\n"+conf), 0o644); err != nil {
		return 0, err
	}
	a, err := driver.Start(path, []string{"-d", "396", "-l", filepath.Join(dir, "hostcache.log"), "-U", "root",
		"-c", file}, nil)
	if err != nil {
		return 0, err
	}
	defer a.Close(5 * time.Second)
	time.Sleep(settle)
	cpu0, t0 := procCPU(a.Pid()), time.Now()
	time.Sleep(idle)
	return time.Duration(float64(procCPU(a.Pid())-cpu0) / time.Since(t0).Seconds()), nil
}

func medianDuration(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// selfCPU is this process's CPU time (user and system), to the
// microsecond.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// confLabel shows configuration lines given to the current agent.
func confLabel(conf string) string {
	if conf = strings.TrimSpace(conf); conf == "" {
		return ""
	}
	return "; " + strings.ReplaceAll(conf, "\n", ", ")
}

// borrowedInDoms declares the instance domains src's metrics name but
// another collector declares (the process groups' metrics are in the
// process collector's domain), so that src samples alone.
func borrowedInDoms(src cache.Source) cache.Source {
	out := cache.Source{Name: "borrowed"}
	have := map[cache.InDomID]bool{}
	for _, in := range src.InDoms {
		have[in.ID] = true
	}
	for _, d := range src.Metrics {
		if d.InDom != cache.InDomNone && !have[d.InDom] {
			have[d.InDom] = true
			out.InDoms = append(out.InDoms, cache.InDomDesc{ID: d.InDom, Name: "borrowed"})
		}
	}
	return out
}
