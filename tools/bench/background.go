package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// runBackground measures, for profiling by hand, the CPU per second of
// agent (a comma-separated list of binaries, and before when given: each
// in turn) on a generated tree with nobody fetching, beside the Go
// re-read floor of the same tree: `bench background -agent A,B DIR` after
// `bench gen-tree DIR FACTOR`.
// Each round runs each binary once for window after settle, then the
// floor; every figure is printed, so the spread shows.
func runBackground(agent, before, dir, conf string, rounds int, window time.Duration) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	plan := filepath.Join(dir, "plan")
	if _, err := os.Stat(plan); err != nil {
		costs, err := collectorCosts(3, treeEnv(dir))
		if err != nil {
			return "", err
		}
		if err := writePlan(plan, planOf(costs)); err != nil {
			return "", err
		}
	}
	bins := strings.Split(agent, ",")
	if before != "" {
		bins = append([]string{before}, bins...)
	}
	figures := make([][]time.Duration, len(bins)+1)
	for r := 0; r < rounds; r++ {
		for i, bin := range bins {
			d, err := agentBackground(bin, dir, conf, bgSettle, window)
			if err != nil {
				return "", fmt.Errorf("%s: %w", bin, err)
			}
			figures[i] = append(figures[i], d)
		}
		d, err := backgroundCPU(self, []string{"go-ticker", plan}, window)
		if err != nil {
			return "", fmt.Errorf("Go floor: %w", err)
		}
		figures[len(bins)] = append(figures[len(bins)], d)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Background CPU on %s, %d rounds of %s%s\n\n", dir, rounds, window, confLabel(conf))
	for i, name := range append(bins, "Go floor") {
		fmt.Fprintf(&b, "%s: median %s;", name, us(medianDuration(figures[i])))
		for _, d := range figures[i] {
			fmt.Fprintf(&b, " %s", us(d))
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
