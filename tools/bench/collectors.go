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

// collectorCost is one collector's sample on this machine.
type collectorCost struct {
	name     string
	interval time.Duration
	cpu      time.Duration // CPU per sample, this process's
	perSec   time.Duration // cpu spread over its interval
}

// runCollectors times a sample of each registered collector against this
// machine's /proc and /sys (the process's CPU, not wall time) and, with
// before set, measures the idle CPU per second of that agent binary and
// of agent, alternately, on pipes as pmcd runs them.
func runCollectors(agent, before string, rounds int, idle time.Duration, nowConf string) (string, error) {
	costs, err := collectorCosts(200)
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

// collectorCosts samples each registered collector n times.
func collectorCosts(n int) ([]collectorCost, error) {
	ids, err := os.MkdirTemp("", "hostcache-ids-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(ids)
	var out []collectorCost
	for _, reg := range collector.Registry() {
		c, err := reg.Factory(engine.Env{Proc: "/proc", Sys: "/sys", IDDir: ids, Filter: engine.Filter{}})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", reg.Name, err)
		}
		schema, err := cache.NewSchema(c.Source())
		if err != nil {
			return nil, err
		}
		now := time.Now()
		bld := schema.NewBuilder(0, now)
		sample := func() {
			now = now.Add(time.Second)
			bld.Reset(now)
			c.Sample(bld, now) // a source this host lacks costs what failing costs
			bld.Part()
		}
		sample() // the first builds instance tables and opens files
		cpu0 := selfCPU()
		for i := 0; i < n; i++ {
			sample()
		}
		iv := reg.Interval
		if iv == 0 {
			iv = time.Second
		}
		per := (selfCPU() - cpu0) / time.Duration(n)
		out = append(out, collectorCost{reg.Name, iv, per, time.Duration(float64(per) * float64(time.Second) / float64(iv))})
	}
	return out, nil
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
