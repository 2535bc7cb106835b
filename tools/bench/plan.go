package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A reading plan is what the re-read floors do: each file a collector
// reads, at the interval it reads it, and each filesystem it statfs's
// (written "statfs:<path>"). It is taken from the collectors themselves:
// on a generated tree, the files each one reads in a minute of samples
// (inotify) and how often; on procfs and sysfs, which send no inotify
// events, the descriptors they hold open, at the collector's interval.
// So the floors read what the agent reads, as often.
type planEntry struct {
	interval time.Duration
	path     string
}

// statfsPrefix marks a plan entry that is a statfs call, not a read.
const statfsPrefix = "statfs:"

// openFiles lists the regular files this process holds open, by fd.
func openFiles() map[string]string {
	out := map[string]string{}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(target, "/") {
			out[fd.Name()] = target
		}
	}
	return out
}

// newlyOpen returns the files open now that were not open before, below
// root (the tree a collector was pointed at).
func newlyOpen(before map[string]string, roots ...string) []string {
	var out []string
	for fd, path := range openFiles() {
		if before[fd] == path {
			continue
		}
		for _, r := range roots {
			if strings.HasPrefix(path, r+"/") {
				out = append(out, path)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// writePlan writes a plan as "<interval ms> <path>" lines, the form the
// C floor (tools/echoagent/ticker.c) and the Go floor read.
func writePlan(file string, plan []planEntry) error {
	var b strings.Builder
	for _, e := range plan {
		fmt.Fprintf(&b, "%d %s\n", e.interval.Milliseconds(), e.path)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

func readPlan(file string) ([]planEntry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var plan []planEntry
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		ms, path, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.Atoi(ms)
		if !ok || err != nil || n < 1000 || n%1000 != 0 {
			return nil, fmt.Errorf("%s:%d: want \"<whole seconds in ms> <path>\"", file, line)
		}
		plan = append(plan, planEntry{time.Duration(n) * time.Millisecond, path})
	}
	return plan, sc.Err()
}
