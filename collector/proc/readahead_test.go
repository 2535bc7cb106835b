package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
)

// manyProcesses adds n copies of fixture process 100 to h's /proc root,
// PIDs 1000 on, each with its own utime, command, namespace and io.
func manyProcesses(t *testing.T, h *collectortest.Harness, n int) {
	t.Helper()
	src := filepath.Join(h.Proc, "100")
	files, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		pid := strconv.Itoa(1000 + i)
		dir := filepath.Join(h.Proc, pid)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.IsDir() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(src, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			switch f.Name() {
			case "stat":
				fields := strings.Fields(text)
				fields[0], fields[1], fields[13] = pid, fmt.Sprintf("(c%d)", i), strconv.Itoa(i)
				text = strings.Join(fields, " ") + "\n"
			case "status":
				text = strings.Replace(text, "NSpid:\t100", "NSpid:\t"+pid, 1)
			case "io":
				text = strings.Replace(text, "rchar: ", "rchar: "+strconv.Itoa(i), 1)
			}
			if err := os.WriteFile(filepath.Join(dir, f.Name()), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A sample read ahead by workers sets what a sample read in its own
// goroutine sets, process by process.
func TestReadAheadSamplesAsOneReader(t *testing.T) {
	const n = 300
	var got [2]map[string]string
	for i, ahead := range []bool{false, true} {
		h, _ := newAllHarness(t, "processes/t0")
		manyProcesses(t, h, n)
		c := h.C.(*processCollector)
		c.ahead = nil
		if ahead {
			c.ahead = readAheadWith(h.Proc, 2) // two workers, whatever GOMAXPROCS
		}
		h.MustSample(collectortest.T0)
		got[i] = map[string]string{}
		for _, name := range []string{"proc.psinfo.pid", "proc.psinfo.utime", "proc.psinfo.cmd",
			"proc.psinfo.psargs", "proc.namespaces.pid", "proc.io.rchar", "proc.id.uid_nm", "proc.memory.size"} {
			for _, v := range h.Values(name) {
				got[i][fmt.Sprintf("%s[%d]", name, v.Inst)] = fmt.Sprint(v.Bits, v.Str)
			}
		}
		h.WantU64("proc.nprocs", 0xffffffff, n+4)
		h.WantU64("proc.psinfo.utime", 1299, 299*10) // ticks as ms
		if v := h.MustValue("proc.namespaces.pid", 1150); v.Str != "1150" {
			t.Errorf("namespaces.pid of 1150 = %q", v.Str)
		}
	}
	if len(got[0]) < 8*n {
		t.Fatalf("%d values, want 8 metrics of %d processes", len(got[0]), n)
	}
	for k, v := range got[0] {
		if got[1][k] != v {
			t.Errorf("%s: %q read ahead, %q read in turn", k, got[1][k], v)
		}
	}
	if len(got[1]) != len(got[0]) {
		t.Errorf("%d values read ahead, %d in turn", len(got[1]), len(got[0]))
	}
}

// A sample that panics while it takes the records leaves no worker
// waiting: each returns, and the panic reaches the engine.
func TestReadAheadStopsWithTheSample(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	manyProcesses(t, h, 200)
	ra := readAheadWith(h.Proc, 2)
	pids := make([]int32, 200)
	for i := range pids {
		pids[i] = int32(1000 + i)
	}
	for _, stopAt := range []int{0, 40, 199} {
		taken := 0
		func() {
			defer func() {
				if v := recover(); v != "stop" {
					t.Errorf("stopped at %d: recovered %v", stopAt, v)
				}
			}()
			ra.each(pids, record{}, func(r *record, _ *reader, err error) {
				if err != nil || r.pid != pids[taken] {
					t.Fatalf("record %d: pid %d, err %v", taken, r.pid, err)
				}
				if taken == stopAt {
					panic("stop")
				}
				taken++
			})
		}()
		if taken != stopAt {
			t.Errorf("took %d records, want %d", taken, stopAt)
		}
	}
}

// While no client reads the processes (the engine slows the collector),
// a sample reads them in turn: the workers' extra CPU buys nobody a
// shorter wait. A panic of a worker reaches the sample.
func TestSlowedSampleReadsInTurn(t *testing.T) {
	h, _ := newAllHarness(t, "processes/t0")
	manyProcesses(t, h, 2*readAheadMin)
	c := h.C.(*processCollector)
	var err error
	if c.pids, err = c.lister.List(nil); err != nil {
		t.Fatal(err)
	}
	c.ahead = &readAhead{workers: 2} // no slots: a worker panics
	c.Pace(10)
	taken := 0
	c.readEach(func(*record, *reader, error) { taken++ })
	if taken != len(c.pids) {
		t.Errorf("slowed: took %d records of %d", taken, len(c.pids))
	}
	c.Pace(1)
	defer func() {
		if v := recover(); v == nil {
			t.Error("at the collector's pace the sample did not read ahead")
		}
	}()
	c.readEach(func(*record, *reader, error) {})
}
