package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// stallRequest is fetched throughout the stall run: every fast source but
// the stalled one.
var stallRequest = []string{"hostcache.kernel.all.cpu.user", "hostcache.kernel.percpu.cpu.idle",
	"hostcache.mem.util.free", "hostcache.disk.dev.read", "hostcache.network.interface.in.bytes"}

// runStall measures fetch service time while one collector is stuck in a
// read that never returns (/proc/loadavg replaced by a FIFO nobody writes),
// against the same run unstalled, and shows the stall in the self-metrics.
func runStall(agent, pmnsPath string, d time.Duration) (string, error) {
	pmns, err := loadPMNS(pmnsPath, 396)
	if err != nil {
		return "", err
	}
	req, err := pmidsOf(pmns, stallRequest)
	if err != nil {
		return "", err
	}
	base, _, err := stallRun(agent, pmns, req, d, false)
	if err != nil {
		return "", err
	}
	stalled, st, err := stallRun(agent, pmns, req, d, true)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Fault isolation: one collector stalled\n\n")
	fmt.Fprintf(&b, "The load collector's read of /proc/loadavg blocks for %s (a FIFO with no writer);\n", d)
	b.WriteString("fetches of the other collectors' metrics continue throughout.\n\n")
	b.WriteString("| run | fetches | p50 | p99 | p99.9 |\n|---|---|---|---|---|\n")
	for _, r := range []struct {
		name string
		lat  []time.Duration
	}{{"unstalled", base}, {"load collector stalled", stalled}} {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", r.name, len(r.lat), us(pct(r.lat, .5)), us(pct(r.lat, .99)), us(pct(r.lat, .999)))
	}
	p99 := ratio(pct(stalled, .99), pct(base, .99))
	fmt.Fprintf(&b, "\np99 stalled / unstalled: %.2f (target ≤ 1.20: %s)\n\n", p99, verdict(p99 <= 1.2))
	fmt.Fprintf(&b, "During the stall: load age %s, cpu age %s; kernel.all.load values %d (withheld once stale); "+
		"after the read returned: %d values, load samples %d -> %d.\n", st.loadAge, st.cpuAge, st.loadValsDuring,
		st.loadValsAfter, st.samplesDuring, st.samplesAfter)
	return b.String(), nil
}

type stallState struct {
	loadAge, cpuAge               time.Duration
	loadValsDuring, loadValsAfter int
	samplesDuring, samplesAfter   uint64
}

func stallRun(agent string, pmns map[string]uint32, req []uint32, d time.Duration, stall bool) ([]time.Duration, stallState, error) {
	var st stallState
	dir, err := os.MkdirTemp("", "hostcache-stall")
	if err != nil {
		return nil, st, err
	}
	defer os.RemoveAll(dir)
	if err := generateTree(dir, scaleBase); err != nil {
		return nil, st, err
	}
	a, err := startSynthetic(agent, dir, "")
	if err != nil {
		return nil, st, err
	}
	defer a.Kill()
	time.Sleep(2 * time.Second)
	loadavg := filepath.Join(dir, "proc", "loadavg")
	if stall {
		os.Remove(loadavg)
		if err := syscall.Mkfifo(loadavg, 0o644); err != nil {
			return nil, st, err
		}
	}
	lat, err := serviceFor(a, req, d)
	if err != nil {
		return nil, st, err
	}
	if !stall {
		return lat, st, nil
	}
	ages, _ := instanceValues(a, pmns["hostcache.control.collector.age"], 396<<22|0)
	st.loadAge = time.Duration(beUint64(ages["load"].Payload)) * time.Millisecond
	st.cpuAge = time.Duration(beUint64(ages["cpu"].Payload)) * time.Millisecond
	samples, _ := instanceValues(a, pmns["hostcache.control.collector.samples"], 396<<22|0)
	st.samplesDuring = beUint64(samples["load"].Payload)
	res, _ := fetchValues(a, []uint32{pmns["hostcache.kernel.all.load"]})
	st.loadValsDuring = int(res.Sets[0].NumVal)
	// Unblock the reader: open the FIFO for writing and give it a line,
	// then put a regular file back so later samples succeed.
	line := []byte("0.50 0.40 0.30 2/300 12345\n")
	if err := os.WriteFile(loadavg, line, 0o644); err != nil {
		return nil, st, err
	}
	os.Remove(loadavg)
	if err := os.WriteFile(loadavg, line, 0o644); err != nil {
		return nil, st, err
	}
	time.Sleep(2500 * time.Millisecond)
	res, _ = fetchValues(a, []uint32{pmns["hostcache.kernel.all.load"]})
	st.loadValsAfter = int(res.Sets[0].NumVal)
	samples, _ = instanceValues(a, pmns["hostcache.control.collector.samples"], 396<<22|0)
	st.samplesAfter = beUint64(samples["load"].Payload)
	return lat, st, nil
}
