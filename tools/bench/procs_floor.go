package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/pmdahostcache/pmdahostcache/kernel"
)

// The proc collector samples on its interval's grid, half a second past
// it, as every collector does (ticker.go); the floor reads half an
// interval later, and each window starts between the two, so that both
// fall whole inside it.
const (
	procInterval    = 10 * time.Second
	floorPhase      = 5500 * time.Millisecond
	procWindowPhase = 3 * time.Second
)

// floorFiles are the files the proc collector's sample reads of each
// process (collector/proc/record.go), besides a stat(2) of the process's
// directory (its owner) and, for a process new to it, its cmdline.
var floorFiles = []string{"stat", "status", "statm", "io", "schedstat"}

// procFloor is the background floor: the reads of one proc sample,
// parsing nothing.
type procFloor struct {
	lister kernel.PIDLister
	pids   []int32
	seen   map[int32]uint64 // the pass each process was last listed in
	pass   uint64
	path   []byte
	buf    []byte
}

// read lists /proc and reads each process's files once.
func (f *procFloor) read() {
	f.pass++
	f.pids, _ = f.lister.List(f.pids)
	var st syscall.Stat_t
	for _, pid := range f.pids {
		dir := f.pathOf(pid, "")
		for _, name := range floorFiles {
			f.buf, _ = kernel.ReadFileInto(f.pathOf(pid, name), f.buf)
		}
		syscall.Stat(dir, &st)
		if _, known := f.seen[pid]; !known {
			f.buf, _ = kernel.ReadFileInto(f.pathOf(pid, "cmdline"), f.buf)
		}
		f.seen[pid] = f.pass
	}
	for pid, pass := range f.seen {
		if pass != f.pass {
			delete(f.seen, pid)
		}
	}
}

func (f *procFloor) pathOf(pid int32, name string) string {
	f.path = append(f.path[:0], "/proc/"...)
	f.path = strconv.AppendInt(f.path, int64(pid), 10)
	if name != "" {
		f.path = append(append(f.path, '/'), name...)
	}
	return string(f.path)
}

// runProcFloor is the procs-floor mode: one read at once, "ready" on
// stdout, then one read each interval at the floor's phase, until killed.
func runProcFloor() error {
	f := &procFloor{lister: kernel.PIDLister{Root: "/proc"}, seen: map[int32]uint64{},
		buf: make([]byte, 0, 8192)}
	f.read()
	if _, err := fmt.Println("ready"); err != nil {
		return err
	}
	for {
		time.Sleep(time.Until(nextPhase(time.Now(), procInterval, floorPhase)))
		f.read()
	}
}

// nextPhase returns the first time after now that lies phase past a
// multiple of every (since the Unix epoch).
func nextPhase(now time.Time, every, phase time.Duration) time.Time {
	t := now.Truncate(every).Add(phase)
	for !t.After(now) {
		t = t.Add(every)
	}
	return t
}

// background is one idle window: nobody fetching from the bench, the
// floor reading beside the agents.
type background struct {
	hostcache, proc, floor time.Duration // CPU per second
	before, after          procCollectorFigures
	window                 time.Duration
}

// measureProcsIdle starts the floor (self procs-floor), waits for the
// next window's phase and measures the CPU per second of both agents and
// the floor over window, with hostcache's proc figures either side.
func measureProcsIdle(self string, agents procAgents, window time.Duration) (background, error) {
	floor := exec.Command(self, "procs-floor")
	floor.Stderr = os.Stderr
	floor.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // a signal to the bench skips the defer
	out, err := floor.StdoutPipe()
	if err != nil {
		return background{}, err
	}
	if err := floor.Start(); err != nil {
		return background{}, err
	}
	defer func() {
		floor.Process.Kill()
		floor.Wait()
	}()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		return background{}, fmt.Errorf("the floor did not start: %q %v", line, err)
	}
	time.Sleep(time.Until(nextPhase(time.Now(), procInterval, procWindowPhase)))
	bg := background{window: window}
	if bg.before, err = readProcCollector(); err != nil {
		return bg, err
	}
	pids := []int{agents.hostcache, agents.proc, floor.Process.Pid}
	var cpu0 [3]time.Duration
	for i, pid := range pids {
		cpu0[i] = procCPU(pid)
	}
	t0 := time.Now()
	time.Sleep(window)
	wall := time.Since(t0).Seconds()
	rates := []*time.Duration{&bg.hostcache, &bg.proc, &bg.floor}
	for i, pid := range pids {
		*rates[i] = time.Duration(float64(procCPU(pid)-cpu0[i]) / wall)
	}
	bg.after, err = readProcCollector()
	return bg, err
}
