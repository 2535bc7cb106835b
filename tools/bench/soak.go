package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// runSoak drives the installed agent through pmcd with clients x perClient
// fetches and reports errors, RSS growth and the goroutine count.
func runSoak(loop string, clients, perClient int) (string, error) {
	pid, err := installedPid()
	if err != nil {
		return "", err
	}
	g0, err := goroutines()
	if err != nil {
		return "", err
	}
	// Warm up, so growth measures a leak rather than buffers reaching size.
	if _, err := fetchloop(loop, clients, 2000, prefixed("hostcache.", equivalentSet)); err != nil {
		return "", err
	}
	rss0 := procRSS(pid)
	start := time.Now()
	r, err := fetchloop(loop, clients, perClient, prefixed("hostcache.", equivalentSet))
	if err != nil {
		return "", err
	}
	wall := time.Since(start)
	rss1 := procRSS(pid)
	g1, err := goroutines()
	if err != nil {
		return "", err
	}
	pid1, _ := installedPid()
	var b strings.Builder
	b.WriteString("# Soak\n\n| fetches | clients | errors | wall | fetches/s | p50 | p99 | RSS before -> after | goroutines before -> after | agent restarted |\n|---|---|---|---|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %s | %.0f | %.1f µs | %.1f µs | %.1f -> %.1f MB (%+d KB) | %d -> %d | %v |\n",
		r.fetches, r.clients, r.errors, wall.Round(time.Second), r.perSec, r.p50, r.p99,
		float64(rss0)/1024, float64(rss1)/1024, rss1-rss0, g0, g1, pid1 != pid)
	ok := r.errors == 0 && rss1-rss0 <= 2048 && g0 == g1 && pid1 == pid
	fmt.Fprintf(&b, "\nTargets (0 errors, RSS growth ≤ 2 MB, constant goroutines, no restart): %s\n", verdict(ok))
	return b.String(), nil
}

func installedPid() (int, error) {
	out, err := exec.Command("pgrep", "-x", "pmdahostcache").Output()
	if err != nil {
		return 0, fmt.Errorf("pmdahostcache is not running under pmcd: install it first")
	}
	return strconv.Atoi(strings.Fields(string(out))[0])
}

func goroutines() (int, error) {
	out, err := exec.Command("pminfo", "-f", "hostcache.control.goroutines").CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pminfo: %v: %s", err, out)
	}
	_, v, ok := strings.Cut(string(out), "value ")
	if !ok {
		return 0, fmt.Errorf("no goroutine count: %s", out)
	}
	return strconv.Atoi(strings.TrimSpace(v))
}
