package main

import (
	"path/filepath"
	"syscall"
	"time"
)

// runGoTicker is the Go counterpart of tools/echoagent/ticker.c: once a
// second, on the second, it re-reads the one-second collectors' files from
// kept fds and parses nothing. Beside the C ticker it shows what the Go
// runtime itself adds to waking once a second.
func runGoTicker(proc string) {
	names := []string{"stat", "meminfo", "loadavg", "uptime", "diskstats", "net/dev"}
	var fds []int
	for _, n := range names {
		if fd, err := syscall.Open(filepath.Join(proc, n), syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err == nil {
			fds = append(fds, fd)
		}
	}
	buf := make([]byte, 1<<20)
	untilNext := func() time.Duration {
		now := time.Now()
		return now.Truncate(time.Second).Add(time.Second).Sub(now)
	}
	timer := time.NewTimer(untilNext())
	for range timer.C {
		for _, fd := range fds {
			for off := int64(0); ; {
				n, err := syscall.Pread(fd, buf, off)
				if n <= 0 || err != nil {
					break
				}
				off += int64(n)
			}
		}
		timer.Reset(untilNext())
	}
}
