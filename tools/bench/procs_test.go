package main

import (
	"errors"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pmdahostcache/pmdahostcache/engine"
)

func TestPercentileNearestRank(t *testing.T) {
	var hundred []time.Duration
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{hundred, 0.5, 50 * time.Millisecond},
		{hundred, 0.99, 99 * time.Millisecond},
		{hundred, 1, 100 * time.Millisecond},
		{hundred, 0, time.Millisecond},
		{hundred[:50], 0.99, 50 * time.Millisecond}, // 49.5 rounds up to the 50th
		{hundred[:3], 0.5, 2 * time.Millisecond},
		{hundred[:1], 0.99, time.Millisecond},
		{nil, 0.5, 0},
	} {
		if got := percentile(c.sorted, c.q); got != c.want {
			t.Errorf("percentile of %d values at %v = %v, want %v", len(c.sorted), c.q, got, c.want)
		}
	}
}

func TestParseProcFetch(t *testing.T) {
	out := "hostcache 0 900.0 0 1075\n" +
		"proc 0 25000.5 0 1075\n" +
		"hostcache 1 300.0 0 1075\n" +
		"proc 1 5000000.0 -12353 0\n" +
		"hostcache 2 100.0 0 1074\n" +
		"proc 2 20000.0 0 1074\n"
	figs, err := parseProcFetch(out)
	if err != nil {
		t.Fatal(err)
	}
	hc, pr := figs["hostcache"], figs["proc"]
	if hc == nil || pr == nil || len(figs) != 2 {
		t.Fatalf("labels: %v", figs)
	}
	if hc.first != 900*time.Microsecond || hc.firstErr || hc.fetches != 3 || hc.errors != 0 || hc.values != 1074 {
		t.Errorf("hostcache: %+v", *hc)
	}
	if !slices.Equal(hc.rest, []time.Duration{100 * time.Microsecond, 300 * time.Microsecond}) {
		t.Errorf("hostcache's fetches after the first, sorted: %v", hc.rest)
	}
	if pr.first != 25000500*time.Nanosecond || pr.errors != 1 || pr.status != -12353 || pr.values != 1074 {
		t.Errorf("pmdaproc: %+v", *pr)
	}
	for _, bad := range []string{"hostcache 0 900.0 0", "hostcache x 900.0 0 1", "proc 1 fast 0 1"} {
		if _, err := parseProcFetch(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestTwinColumns(t *testing.T) {
	served := map[string]bool{}
	for _, name := range psColumns {
		served[name] = true
		if name != "proc.psinfo.wchan_s" {
			served["hostcache."+name] = true
		}
	}
	delete(served, "proc.id.uid_nm")
	both, left := twinColumns(psColumns, served)
	if !slices.Equal(left, []string{"proc.psinfo.wchan_s", "proc.id.uid_nm"}) {
		t.Errorf("left out: %v", left)
	}
	if len(both) != len(psColumns)-2 || both[0] != "proc.psinfo.pid" {
		t.Errorf("both serve: %v", both)
	}
}

func TestParsePminfoValues(t *testing.T) {
	out := "\nhostcache.control.collector.samples\n" +
		"    inst [0 or \"cpu\"] value 312\n" +
		"    inst [39 or \"proc\"] value 32\n\n" +
		"hostcache.control.history\n" +
		"    value 900\n\n" +
		"hostcache.proc.psinfo.cmd\n" +
		"    inst [1 or \"000001 init\"] value \"init\"\n"
	v := parsePminfoValues(out)
	for _, c := range []struct{ metric, inst, want string }{
		{"hostcache.control.collector.samples", "proc", "32"},
		{"hostcache.control.collector.samples", "cpu", "312"},
		{"hostcache.control.history", "", "900"},
		{"hostcache.proc.psinfo.cmd", "000001 init", `"init"`},
	} {
		if got, ok := v[c.metric][c.inst]; !ok || got != c.want {
			t.Errorf("%s[%q] = %q (%v), want %q", c.metric, c.inst, got, ok, c.want)
		}
	}
}

func TestNextPhase(t *testing.T) {
	at := func(s, ms int) time.Time { return time.Unix(int64(s), int64(ms)*1e6) }
	for _, c := range []struct{ now, want time.Time }{
		{at(1000, 0), at(1003, 0)},
		{at(1002, 999), at(1003, 0)},
		{at(1003, 0), at(1013, 0)}, // strictly after now
		{at(1007, 0), at(1013, 0)},
	} {
		if got := nextPhase(c.now, 10*time.Second, 3*time.Second); !got.Equal(c.want) {
			t.Errorf("after %v: %v, want %v", c.now.Unix(), got, c.want)
		}
	}
}

func TestParseSizes(t *testing.T) {
	if got, err := parseSizes("1000, 10000"); err != nil || !slices.Equal(got, []int{1000, 10000}) {
		t.Errorf("1000, 10000: %v %v", got, err)
	}
	for _, bad := range []string{"", "10000,1000", "0", "1000,1000", "many"} {
		if _, err := parseSizes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPerFetch(t *testing.T) {
	// 10 ms of CPU over 2 s, 1 ms a second of it background: 8 ms over 4 fetches.
	if got := perFetch(10*time.Millisecond, time.Millisecond, 2*time.Second, 4); got != 2*time.Millisecond {
		t.Errorf("per fetch %v, want 2ms", got)
	}
	if got := perFetch(time.Millisecond, time.Millisecond, 2*time.Second, 4); got != 0 {
		t.Errorf("less CPU than the background: %v, want 0", got)
	}
	if got := perFetch(time.Millisecond, 0, time.Second, 0); got != 0 {
		t.Errorf("no fetches: %v", got)
	}
}

func TestProjectHistory(t *testing.T) {
	base := background{after: procCollectorFigures{historyBytes: 9000, historySamples: 90}}
	// Growing history: three samples added 3 MB.
	grow := background{
		before: procCollectorFigures{samples: 10, historyBytes: 1 << 20, historySamples: 10, historySpan: 900},
		after:  procCollectorFigures{samples: 13, historyBytes: 4 << 20, historySamples: 13, historySpan: 900},
	}
	if got, want := projectHistory(base, grow), float64(90<<20); got != want {
		t.Errorf("growing history: %.0f, want %.0f", got, want)
	}
	// A full history dropped a no-children sample (100 bytes) for each added.
	full := grow
	full.before.historySamples, full.after.historySamples = 90, 90
	if got, want := projectHistory(base, full), float64(90<<20+90*100); got != want {
		t.Errorf("full history: %.0f, want %.0f", got, want)
	}
	none := grow
	none.after.samples = none.before.samples
	if got := projectHistory(base, none); got != float64(4<<20) {
		t.Errorf("no sample in the window: %.0f, want the bytes held", got)
	}
}

func TestGroupNames(t *testing.T) {
	got := groupNames([]string{"proc.psinfo.pid", "proc.psinfo.cmd", "proc.id.uid", "proc.psinfo.rss", "top"})
	if want := "proc.psinfo.{pid, cmd, rss}, proc.id.{uid}, top"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{7: "7", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// fakeProcsRun is a run where hostcache meets every target at 1,000
// processes and misses every one at 10,000.
func fakeProcsRun() procsRun {
	ms := time.Millisecond
	fetch := func(first, p50 time.Duration, n int) fetchFigures {
		rest := make([]time.Duration, n)
		for i := range rest {
			rest[i] = p50
		}
		return fetchFigures{first: first, rest: rest, fetches: n + 1, values: 1075, cpu: p50 / 2}
	}
	base := background{hostcache: 2 * ms, proc: 0, floor: ms, window: 30 * time.Second,
		after: procCollectorFigures{historyBytes: 90000, historySamples: 90, historySpan: 900}}
	good := procsSize{extra: 1000, procsSeen: 1075,
		fetch: procFetchRun{hostcache: fetch(5*ms, ms, 50), proc: fetch(30*ms, 20*ms, 50), sampled: 50,
			cached: fetch(ms, ms/10, 25), answer: ms / 2, whole: 1078 * time.Microsecond},
		bg: background{hostcache: 3 * ms, floor: 4 * ms,
			before: procCollectorFigures{samples: 40, historyBytes: 2 << 20, historySamples: 90, historySpan: 900},
			after:  procCollectorFigures{samples: 43, historyBytes: 3 << 20, historySamples: 90, historySpan: 900}},
		hcRSS: 40 << 10, procRSS: 8 << 10}
	bad := procsSize{extra: 10000, procsSeen: 10075,
		fetch: procFetchRun{hostcache: fetch(50*ms, 20*ms, 50), proc: fetch(300*ms, 200*ms, 10),
			cached: fetch(ms, ms/10, 25), answer: 4 * ms, whole: 20588 * time.Microsecond},
		bg: background{hostcache: 40 * ms, floor: 20 * ms,
			before: procCollectorFigures{samples: 50, historyBytes: 10 << 20, historySamples: 90, historySpan: 900},
			after:  procCollectorFigures{samples: 53, historyBytes: 20 << 20, historySamples: 90, historySpan: 900}},
		hcRSS: 150 << 10, procRSS: 9 << 10}
	bad.fetch.proc.errors, bad.fetch.proc.status, bad.fetch.proc.firstErr = 1, -12353, true
	return procsRun{columns: psColumns[:19], left: psColumns[19:], base: base, sizes: []procsSize{good, bad},
		facts: machineFacts{cpus: 2, kernel: "6.1.0", pidMax: 32768, baseProcs: 75, fetchesPerAgent: 51,
			loadBefore: "0.50 0.40 0.30", loadAfter: "1.50 0.70 0.40"}}
}

func TestProcsReport(t *testing.T) {
	report := procsReport(fakeProcsRun())
	checkTables(t, "procs", report)
	checkHeadings(t, "procs", report)
	if !strings.Contains(report, "Left out, no hostcache twin yet: proc.id.{uid_nm}.") {
		t.Errorf("the left-out column is not named:\n%s", report)
	}
	if !strings.Contains(report, "2 CPUs, Linux 6.1.0") || !strings.Contains(report, "1.50 0.70 0.40 at the end") {
		t.Errorf("no machine facts:\n%s", report)
	}
	row := func(prefix string) string {
		for _, line := range strings.Split(report, "\n") {
			if strings.HasPrefix(line, "| "+prefix) {
				return line
			}
		}
		t.Fatalf("no row %q:\n%s", prefix, report)
		return ""
	}
	for _, c := range []struct{ row, want string }{
		{"fetch p50", "| 1.0 ms | 20.0 ms | 20.0× | ≥ 10×: PASS | 20.0 ms | 200.0 ms (1 failed: PM_ERR_TIMEOUT) " +
			"| 10.0× | ≥ 20×: MISS |"},
		{"CPU per s, idle", "| 3.0 ms | 0 µs | 0.8× | ≤ 1×: PASS | 40.0 ms | 0 µs | 2.0× | ≤ 1×: MISS |"},
		// The children add 1 ms against the floor's 3 ms, then 38 ms against 19 ms.
		{"CPU per s the children add", "| 1.0 ms | | 0.3× | ≤ 1×: PASS | 38.0 ms | | 2.0× | ≤ 1×: MISS |"},
		{"first fetch", "| 5.0 ms | 30.0 ms | 6.0× | | 50.0 ms | 300.0 ms, failed: PM_ERR_TIMEOUT | 6.0× | |"},
		{"RSS", "| 40.0 MB | 8.0 MB | 5.0× | | 150.0 MB | 9.0 MB | 16.7× | ≤ 100 MB: MISS |"},
		{"fetches: all", "| 51, 0; 50 | 51, 0 | | | 51, 0; 0 | 11, 1 | | |"},
		{"hostcache's fetch in the cache row's run", "| 500 µs of 1.1 ms | | | | 4.0 ms of 20.6 ms | | | |"},
		{"pmcd's and the client's part", "| 578 µs | | 34.6× | | 16.6 ms | | 12.1× | |"},
		{"fetch p50, hostcache answering from its cache", "| 100 µs | 20.0 ms | 200.0× | | 100 µs | 200.0 ms " +
			"(1 failed: PM_ERR_TIMEOUT) | 2000.0× | |"},
	} {
		if got := row(c.row); !strings.HasSuffix(got, c.want) {
			t.Errorf("row %q:\n got %s\nwant …%s", c.row, got, c.want)
		}
	}
	// 10 MB over three samples, each also dropping a 1,000-byte one, over
	// 90: past the histories' budget, which caps it.
	if projected := (float64(10<<20)/3 + 1000) * 90; projected <= engine.DefaultHistoryBudget {
		t.Fatalf("the projection %.0f is within the budget: the case checks nothing", projected)
	}
	projected := float64(engine.DefaultHistoryBudget)
	if got := projectHistory(fakeProcsRun().base, fakeProcsRun().sizes[1].bg); got != projected {
		t.Errorf("projected history %.0f, want %.0f", got, projected)
	}
}

// Every child grow starts is gone once reap returns.
func TestChildrenReap(t *testing.T) {
	kids, err := newChildren()
	if err != nil {
		t.Fatal(err)
	}
	if err := kids.grow(3); err != nil {
		t.Fatal(err)
	}
	if err := kids.grow(5); err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, p := range kids.procs {
		pids = append(pids, p.Pid)
	}
	if len(pids) != 5 {
		t.Fatalf("%d children, want 5", len(pids))
	}
	if n := kids.reap(); n != 5 {
		t.Errorf("reaped %d, want 5", n)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("child %d after reap: %v", pid, err)
		}
	}
}

func TestMeanOf(t *testing.T) {
	ms := time.Millisecond
	a := fetchFigures{first: 10 * ms, rest: []time.Duration{ms, 3 * ms}}
	b := fetchFigures{first: 2 * ms}
	if got := meanOf(a, b); got != 4*ms {
		t.Errorf("mean of 10, 1, 3 and 2 ms: %v", got)
	}
	if got := meanOf(); got != 0 {
		t.Errorf("mean of nothing: %v", got)
	}
}
