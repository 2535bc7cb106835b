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
	name      string
	interval  time.Duration
	cpu       time.Duration // CPU per sample, this process's
	perSec    time.Duration // cpu spread over its interval
	instances int           // of its largest instance domain
	files     []string      // the files it keeps open
}

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
	b.WriteString("# Each collector's cost per sample\n\n")
	b.WriteString("CPU of one sample against this machine's /proc and /sys (200 samples, in process), and that\n" +
		"cost spread over the collector's default interval: its share of the background.\n\n")
	b.WriteString("| collector | interval | CPU per sample | per second |\n|---|---|---|---|\n")
	var total time.Duration
	for _, c := range costs {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.name, c.interval, us(c.cpu), us(c.perSec))
		total += c.perSec
	}
	fmt.Fprintf(&b, "| all | | | %s |\n", us(total))
	if before == "" {
		return b.String(), nil
	}
	a, o, err := idleAlternating(before, agent, rounds, idle, nowConf)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\n## Background CPU per second, idle, on pipes as pmcd runs the agent\n\n"+
		"%d alternating runs of %s each; medians.\n\n| agent | idle CPU per s |\n|---|---|\n| before (%s) | %s |\n| now (%s%s) | %s |\n",
		rounds, idle, before, us(a), agent, confLabel(nowConf), us(o))
	return b.String(), nil
}

// collectorCosts samples each registered collector n times against the
// tree env names, noting the files each keeps open.
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
	defer watch.Close()
	var out []collectorCost
	for _, reg := range collector.Registry() {
		open0 := openFiles()
		c, err := reg.Factory(env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", reg.Name, err)
		}
		cost, err := sampleCost(c, n, watch)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", reg.Name, err)
		}
		cost.name, cost.interval = reg.Name, reg.Interval
		if cost.interval == 0 {
			cost.interval = time.Second
		}
		cost.perSec = time.Duration(float64(cost.cpu) * float64(time.Second) / float64(cost.interval))
		cost.files = append(cost.files, newlyOpen(open0, env.Proc, env.Sys)...)
		out = append(out, cost)
	}
	return out, nil
}

// sampleCost times n samples of c after a first one (which builds instance
// tables and opens files) and counts its largest instance domain.
func sampleCost(c engine.Collector, n int, watch *openWatch) (collectorCost, error) {
	var cost collectorCost
	src := c.Source()
	schema, err := cache.NewSchema(src)
	if err != nil {
		return cost, err
	}
	now := time.Now()
	bld := schema.NewBuilder(0, now)
	var part *cache.Part
	sample := func() {
		now = now.Add(time.Second)
		bld.Reset(now)
		c.Sample(bld, now) // a source this tree lacks costs what failing costs
		part, _ = bld.Part()
	}
	sample()
	watch.drain()
	sample() // what one sample opens, beyond the fds kept
	cost.files = watch.drain()
	cpu0 := selfCPU()
	for i := 0; i < n; i++ {
		sample()
	}
	cost.cpu = (selfCPU() - cpu0) / time.Duration(n)
	for _, d := range src.InDoms {
		if part == nil {
			break
		}
		if in, ok := part.InDom(d.ID); ok {
			cost.instances = max(cost.instances, in.Len())
		}
	}
	return cost, nil
}

// planOf is the reading plan of the costs' collectors.
func planOf(costs []collectorCost) []planEntry {
	var plan []planEntry
	for _, c := range costs {
		for _, f := range c.files {
			plan = append(plan, planEntry{c.interval, f})
		}
	}
	return plan
}

// idleAlternating measures the idle CPU per second of two agents, rounds
// times each, alternately, and returns the medians.
func idleAlternating(before, now string, rounds int, idle time.Duration, nowConf string) (time.Duration, time.Duration, error) {
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
