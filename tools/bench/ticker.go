package main

import (
	"strings"
	"syscall"
	"time"
)

// runGoTicker is the Go floor of the background-CPU figures, the
// counterpart of tools/echoagent/ticker.c: it follows a reading plan
// (plan.go), waking half a second past each second as the agent's sampling
// grid does, and re-reads the files due from kept fds, parsing nothing
// (statfs'ing the "statfs:" paths). Beside the C floor it shows what the
// Go runtime itself adds.
func runGoTicker(planFile string) error {
	plan, err := readPlan(planFile)
	if err != nil {
		return err
	}
	type kept struct {
		every  int64 // seconds
		fd     int   // -1: statfs path
		statfs string
	}
	var files []kept
	for _, e := range plan {
		if p, ok := strings.CutPrefix(e.path, statfsPrefix); ok {
			files = append(files, kept{int64(e.interval / time.Second), -1, p})
		} else if fd, err := syscall.Open(e.path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err == nil {
			files = append(files, kept{int64(e.interval / time.Second), fd, ""})
		}
	}
	var st syscall.Statfs_t
	buf := make([]byte, 1<<20)
	var last int64 // the second of the last tick: never read twice in one
	for {
		now := time.Now()
		next := now.Truncate(time.Second).Add(500 * time.Millisecond)
		if !next.After(now) {
			next = next.Add(time.Second)
		}
		if next.Unix() <= last {
			next = time.Unix(last+1, 5e8)
		}
		time.Sleep(next.Sub(now))
		last = next.Unix()
		for _, f := range files {
			if last%f.every != 0 {
				continue
			}
			if f.fd < 0 {
				syscall.Statfs(f.statfs, &st)
				continue
			}
			for off := int64(0); ; {
				n, err := syscall.Pread(f.fd, buf, off)
				if n <= 0 || err != nil {
					break
				}
				off += int64(n)
			}
		}
	}
}
