package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/pmda/driver"
)

// scaleBase is the 1x host; 16x is 1024 CPUs, 4096 disks, 1024 interfaces
// and 2048 mounts.
var scaleBase = treeSize{cpus: 64, disks: 256, ifaces: 64, mounts: 128}

// Requests for the scale report: one whose answer does not grow with the
// host, and one that returns every instance of the big indoms.
var (
	smallRequest = []string{"hostcache.hinv.ncpu", "hostcache.kernel.all.load", "hostcache.mem.util.free"}
	fullRequest  = []string{"hostcache.kernel.percpu.cpu.user", "hostcache.disk.dev.read",
		"hostcache.network.interface.in.bytes", "hostcache.filesys.free"}
)

const (
	controlDuration       = "hostcache.control.collector.duration"
	controlInterval       = "hostcache.control.collector.interval"
	controlHistoryBytes   = "hostcache.control.collector.history_bytes"
	controlHistorySamples = "hostcache.control.collector.history_samples"
	// historySeconds and historyBudget are the agent's defaults
	// (engine.DefaultHistory, engine.DefaultHistoryBudget).
	historySeconds = 900
	historyBudget  = 128 << 20
)

// runScale measures sample time, fetch service time and memory at 1x, 4x
// and 16x the base host, and reports growth relative to 1x.
func runScale(agent, ticker, pmnsPath string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	pmns, err := loadPMNS(pmnsPath, 396)
	if err != nil {
		return "", err
	}
	small, err := pmidsOf(pmns, smallRequest)
	if err != nil {
		return "", err
	}
	full, err := pmidsOf(pmns, fullRequest)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("## Scale\n\n| host | sample time (all collectors) | fetch p50, 3 singular metrics " +
		"| fetch p50, every CPU/disk/interface/mount | values in full fetch | RSS " +
		"| history per sample of every collector | history kept within the 128 MB budget |\n" +
		"|---|---|---|---|---|---|---|---|\n")
	var base scalePoint
	sizes := []int{1, 4, 16}
	var bg []bgPoint
	for _, f := range sizes {
		p, q, err := measureScale(agent, ticker, self, f, pmns, small, full)
		if err != nil {
			return "", fmt.Errorf("%dx: %w", f, err)
		}
		bg = append(bg, q)
		if f == 1 {
			base = p
		}
		s := scaleBase.times(f)
		spans := engine.FairSpans(p.histPerSec, historyBudget, historySeconds*time.Second)
		shortest, kept := historySeconds*time.Second, 0.0
		for i, sp := range spans {
			shortest = min(shortest, sp)
			kept += sp.Seconds() * p.histPerSec[i]
		}
		fmt.Fprintf(&b, "| %dx: %d CPUs, %d disks, %d ifaces, %d mounts "+
			"| %s (%.1fx) | %s (%.2fx) | %s (%.1fx) | %d | %.1f MB (%.1fx) | %.0f KB "+
			"| %d of %d collectors %.0f s, the widest %.0f s; %.0f MB |\n",
			f, s.cpus, s.disks, s.ifaces, s.mounts, p.sample, ratio(p.sample, base.sample), us(p.small),
			ratio(p.small, base.small), us(p.full), ratio(p.full, base.full), p.values,
			float64(p.rssKB)/1024, float64(p.rssKB)/float64(base.rssKB), p.histSample/1024,
			countFull(spans, historySeconds*time.Second), len(spans),
			float64(historySeconds), shortest.Seconds(), kept/(1<<20))
	}
	b.WriteString(scaleNotes())
	w, err := measureWaking(ticker, self)
	if err != nil {
		return "", err
	}
	b.WriteString(backgroundTable(sizes, bg, wakingSection(w, bg[0])))
	return b.String(), nil
}

// scaleNotes says how to read the scale table: what grows with the host,
// and what the history columns hold.
func scaleNotes() string {
	return "\nSample time and full-fetch time grow with the host (linear is 4x and 16x).\n" +
		"The singular fetch stays flat: fetch cost depends on what is asked, not on the size of the cache.\n" +
		"History is the samples each collector keeps for figures over clients' intervals.\n" +
		"They are raw counters and instants with peaks, 8 bytes each.\n" +
		"The table gives one sample of every collector.\n" +
		"It gives the spans the default 128 MB budget keeps, " +
		"shared max-min fairly, at the collectors' intervals.\n" +
		"A span is at most the default 900 s.\n" +
		"The table says how many collectors keep all of it, and the span of the widest collector.\n" +
		"The RSS column is after a few seconds, before the history fills.\n\n"
}

// countFull counts the spans that reach the whole history.
func countFull(spans []time.Duration, history time.Duration) int {
	n := 0
	for _, s := range spans {
		if s >= history {
			n++
		}
	}
	return n
}

type scalePoint struct {
	sample, small, full time.Duration
	values, rssKB       int
	histSample          float64   // bytes: one sample of every collector
	histPerSec          []float64 // bytes: a second of each collector's history
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func measureScale(agent, ticker, self string, factor int, pmns map[string]uint32, small,
	full []uint32) (scalePoint, bgPoint, error) {
	var p scalePoint
	dir, err := treeDir("hostcache-scale")
	if err != nil {
		return p, bgPoint{}, err
	}
	defer os.RemoveAll(dir)
	if err := generateTree(dir, scaleBase.times(factor)); err != nil {
		return p, bgPoint{}, err
	}
	bg, err := measureBackground(agent, ticker, self, dir, factor)
	if err != nil {
		return p, bg, err
	}
	p, err = measureFetches(agent, dir, pmns, small, full)
	return p, bg, err
}

// measureFetches measures sample time, fetch service times, RSS and
// history of the agent on the tree in dir.
func measureFetches(agent, dir string, pmns map[string]uint32, small, full []uint32) (scalePoint, error) {
	var p scalePoint
	a, err := startSynthetic(agent, dir, "", true)
	if err != nil {
		return p, err
	}
	defer a.Close(10 * time.Second)
	time.Sleep(3 * time.Second) // several samples of every fast collector
	durations, err := instanceValues(a, pmns[controlDuration], 396<<22|0)
	if err != nil {
		return p, err
	}
	for _, v := range durations {
		if len(v.Payload) == 8 { // U64 microseconds in a value block
			p.sample += time.Duration(beUint64(v.Payload)) * time.Microsecond
		}
	}
	lat, err := serviceTimes(a, small, 2000)
	if err != nil {
		return p, err
	}
	p.small = pct(lat, 0.5)
	if lat, err = serviceTimes(a, full, 200); err != nil {
		return p, err
	}
	p.full = pct(lat, 0.5)
	res, err := fetchValues(a, full)
	if err != nil {
		return p, err
	}
	for _, set := range res.Sets {
		p.values += max(int(set.NumVal), 0)
	}
	p.rssKB = procRSS(a.Pid())
	p.histSample, p.histPerSec, err = historyBytes(a, pmns)
	return p, err
}

// historyBytes reads each collector's history size and sample count and
// returns the bytes of one sample of every collector, and of a second of
// history at each collector's interval.
func historyBytes(a *driver.Agent, pmns map[string]uint32) (perSample float64, perSecond []float64, err error) {
	get := func(name string) (map[string]pmda.ResultValue, error) {
		return instanceValues(a, pmns[name], 396<<22|0)
	}
	bytes, err := get(controlHistoryBytes)
	if err != nil {
		return 0, nil, err
	}
	samples, err := get(controlHistorySamples)
	if err != nil {
		return 0, nil, err
	}
	intervals, err := get(controlInterval)
	if err != nil {
		return 0, nil, err
	}
	for name, b := range bytes {
		n, iv := float64(samples[name].Word), float64(int32(intervals[name].Word))
		if len(b.Payload) != 8 || n == 0 || iv <= 0 {
			continue
		}
		one := float64(beUint64(b.Payload)) / n
		perSample += one
		perSecond = append(perSecond, one*1000/iv)
	}
	return perSample, perSecond, nil
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, x := range b[:8] {
		v = v<<8 | uint64(x)
	}
	return v
}
