//go:build linux

package integration

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/pmdahostcache/pmdahostcache/internal/testenv"
)

// testClientIntervals checks, as an administrator would with PCP's own
// tools, that every computed figure is true over the asking client's own
// interval. Two pmloggers run at once, at 1 s and 10 s, each logging
// hostcache's rates, peaks and iostat figures next to pmdalinux's raw
// counters, while the host carries the load of testUnderLoad, its dd
// burst inside one 10 s interval. Then, from the archives:
//
//   - each hostcache.rate.X agrees with pmdalinux's X converted to a rate
//     over the same two records (as pmval converts a counter: the delta
//     over the agent's own sample times (see agreement): the median
//     relative error is at most 5% at 10 s and 10% at 1 s;
//   - in the 10 s record holding the burst, hostcache.max.rate.disk.dev.
//     write_bytes is at least twice the record's average and within 15% of
//     the highest rate the 1 s client logged over the same seconds;
//   - hostcache.disk.dev.await and util at 10 s agree with iostat.conf's
//     derivation from pmdalinux's raw counters in the same records
//     (median within 10%);
//   - a third client fetching 0.2 ms after each of 20 whole seconds
//     through pmcd never sees the raw counter hostcache.kernel.all.intr
//     repeat: the agent samples just before its fetches once it has
//     learnt them, and half a second away from them before.
//
// INTERVAL_KEEP=dir keeps the archives (dir/one.*, dir/ten.*, dir/disk);
// TestIntervalReport prints the same tables from such a directory, for an
// archive pair recorded with another build (HOSTCACHE_TEST_AGENT).
func testClientIntervals(t *testing.T, load *underLoad) {
	dir := os.Getenv("INTERVAL_KEEP")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "disk"), []byte(load.dev+"\n"), 0o644)
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte(ciLoggerConfig()), 0o644); err != nil {
		t.Fatal(err)
	}
	fetcher := load.alignedFetch
	if load.alignedFetchErr != nil {
		msg := "cannot build the aligned-fetch client (cc and libpcp's headers, libpcp3-dev): " + load.alignedFetchErr.Error()
		if testenv.InCI() {
			t.Error(msg)
		} else {
			t.Log("skipping the aligned-fetch check: " + msg)
		}
	}

	// Both loggers start together just after a whole second, as clients
	// on a wall-clock grid do; the agent's grid follows them once it has
	// learnt their fetches, half a second later before.
	load.waitT0(t)
	arch1, arch10 := filepath.Join(dir, "one"), filepath.Join(dir, "ten")
	for _, a := range []string{arch1, arch10} {
		for _, ext := range []string{".0", ".index", ".meta", ".log"} {
			os.Remove(a + ext)
		}
	}
	l1 := ciStartLogger(t, cfg, "1sec", 66, arch1)
	l10 := ciStartLogger(t, cfg, "10sec", 7, arch10)

	var aligned []ciAligned
	var alignedErr error
	var wg sync.WaitGroup
	if fetcher != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			aligned, alignedErr = ciAlignedFetches(fetcher, 20, "hostcache.kernel.all.intr")
		}()
	}
	// The burst (ciBurstAt) lies inside the 10 s record at 40 s for both
	// hostcache's interval and pmdalinux's.
	burst := load.waitBurst(t)
	for _, c := range []*exec.Cmd{l1, l10} {
		if err := c.Wait(); err != nil {
			t.Errorf("%s: %v", strings.Join(c.Args, " "), err)
		}
	}
	wg.Wait()
	t.Logf("load: %s on %s; %.0f MB over loopback; %.0f MB of 32 KB direct writes so far", burst, load.dev,
		float64(load.sent.get())/1e6, float64(load.written.get())/1e6)

	one, ten := ciReadArchive(t, arch1), ciReadArchive(t, arch10)
	rep := ciAnalyse(t, one, ten, load.dev)
	if fetcher != "" {
		rep.aligned(aligned, alignedErr)
	}
	rep.finish(true)
}

// TestIntervalReport prints the tables of testClientIntervals for archives
// already recorded (INTERVAL_REPORT=dir holding one.*, ten.* and disk, as
// INTERVAL_KEEP leaves them), without failing on the figures: run it on
// the archives of an older build to compare.
func TestIntervalReport(t *testing.T) {
	dir := os.Getenv("INTERVAL_REPORT")
	if dir == "" {
		t.Skip("INTERVAL_REPORT=dir names the archives to report on (recorded with INTERVAL_KEEP=dir)")
	}
	if !have("pmdumplog") {
		t.Skip("pmdumplog is not installed")
	}
	dev := ""
	if b, err := os.ReadFile(filepath.Join(dir, "disk")); err == nil {
		dev = strings.TrimSpace(string(b))
	}
	one, ten := ciReadArchive(t, filepath.Join(dir, "one")), ciReadArchive(t, filepath.Join(dir, "ten"))
	ciAnalyse(t, one, ten, dev).finish(false)
}

// ciPair is a hostcache figure and the pmdalinux counter it must agree
// with: scale turns pmdalinux's rate into hostcache's units, floor (in
// hostcache's units) is the least rate a relative error is taken of, so
// that a nearly idle record's few stray events do not count as a large
// error: the smallest rate the load makes matter.
type ciPair struct {
	ours, theirs string
	scale, floor float64
	inst         string // "" singular, "disk" the burst's device, else the instance
}

var ciPairs = []ciPair{
	// One busy CPU, the loopback loop and the writes give thousands of
	// interrupts and context switches a second; 100/s is noise.
	{"hostcache.rate.kernel.all.intr", "kernel.all.intr", 1, 100, ""},
	{"hostcache.rate.kernel.all.pswitch", "kernel.all.pswitch", 1, 100, ""},
	// pmdalinux counts milliseconds, hostcache gives seconds a second; one
	// CPU busy is about 1, 5% of a CPU is noise.
	{"hostcache.rate.kernel.all.cpu.user", "kernel.all.cpu.user", 1.0 / 1000, 0.05, ""},
	// Kbyte/s both; the trickle is about 1.6 MB/s, the burst far more.
	{"hostcache.rate.disk.dev.write_bytes", "disk.dev.write_bytes", 1, 256, "disk"},
	// byte/s both; the loopback loop moves tens of MB/s.
	{"hostcache.rate.network.interface.in.bytes", "network.interface.in.bytes", 1, 1 << 20, "lo"},
}

var ciOthers = []string{
	"hostcache.max.rate.disk.dev.write_bytes", "hostcache.disk.dev.await", "hostcache.disk.dev.util",
	"disk.dev.total", "disk.dev.total_rawactive", "disk.dev.avactive",
}

func ciLoggerConfig() string {
	var names []string
	for _, p := range ciPairs {
		names = append(names, p.ours, p.theirs)
	}
	return "log mandatory on default {\n    " + strings.Join(append(names, ciOthers...), "\n    ") + "\n}\n"
}

// ciDiskDir finds a directory on a block device that pmdalinux reports
// under disk.dev (a partition counts as its disk, a device-mapper device
// as the disk below it) and returns it with that disk's name.
func ciDiskDir(t *testing.T) (string, string) {
	t.Helper()
	var tried []string
	for _, base := range []string{os.TempDir(), "/var/tmp", repoRoot} {
		var st syscall.Stat_t
		if err := syscall.Stat(base, &st); err != nil {
			continue
		}
		maj, mnr := ciMajor(st.Dev), ciMinor(st.Dev)
		dev := ciWholeDisk(fmt.Sprintf("/sys/dev/block/%d:%d", maj, mnr))
		tried = append(tried, fmt.Sprintf("%s (%d:%d)", base, maj, mnr))
		if dev == "" {
			continue
		}
		d, err := os.MkdirTemp(base, "hostcache-interval-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d, dev
	}
	t.Fatalf("no directory on a disk that disk.dev reports: tried %s", strings.Join(tried, ", "))
	return "", ""
}

func ciMajor(dev uint64) uint64 { return (dev>>8)&0xfff | (dev>>32)&^0xfff }
func ciMinor(dev uint64) uint64 { return dev&0xff | (dev>>12)&^0xff }

// ciWholeDisk resolves a /sys/dev/block entry to the disk pmdalinux names.
func ciWholeDisk(sys string) string {
	path, err := filepath.EvalSymlinks(sys)
	if err != nil {
		return ""
	}
	if fileExists(filepath.Join(path, "partition")) {
		path = filepath.Dir(path)
	}
	if fileExists(filepath.Join(path, "dm")) {
		slaves, _ := filepath.Glob(filepath.Join(path, "slaves", "*"))
		if len(slaves) == 0 {
			return ""
		}
		return ciWholeDisk(slaves[0])
	}
	return filepath.Base(path)
}

type ciCount struct {
	mu sync.Mutex
	n  int64
}

func (c *ciCount) add(n int) { c.mu.Lock(); c.n += int64(n); c.mu.Unlock() }

func (c *ciCount) get() int64 { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// ciLoadCPU keeps one CPU busy in user mode.
func ciLoadCPU(stop chan struct{}, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		deadline := time.Now().Add(3 * time.Minute)
		x := 1.0
		for time.Now().Before(deadline) {
			select {
			case <-stop:
				return
			default:
			}
			for i := 0; i < 20000; i++ {
				x = math.Sqrt(x + float64(i))
			}
		}
	}()
}

// ciLoadLoopback connects to a listener of its own on 127.0.0.1 every
// 10 ms and sends 256 KB: a bounded loop, only loopback addresses.
func ciLoadLoopback(stop chan struct{}, wg *sync.WaitGroup) (*ciCount, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	sent := &ciCount{}
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	go func() {
		defer wg.Done()
		defer ln.Close()
		buf := make([]byte, 256<<10)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range 20000 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				continue
			}
			n, _ := c.Write(buf)
			c.Close()
			sent.add(n)
		}
	}()
	return sent, nil
}

// ciLoadDisk overwrites 32 KB of a 4 MB file every 20 ms with direct I/O
// (fdatasync where direct I/O is refused): a steady 1.6 MB/s of writes, so
// that every record has I/O to compare await and util over.
func ciLoadDisk(stop chan struct{}, wg *sync.WaitGroup, dir string) (*ciCount, error) {
	const size, chunk = 4 << 20, 32 << 10
	name := filepath.Join(dir, "trickle")
	if err := os.WriteFile(name, make([]byte, size), 0o600); err != nil {
		return nil, err
	}
	direct := true
	f, err := os.OpenFile(name, os.O_WRONLY|syscall.O_DIRECT, 0)
	if err != nil {
		direct = false
		if f, err = os.OpenFile(name, os.O_WRONLY, 0); err != nil {
			return nil, err
		}
	}
	f.Sync()
	raw := make([]byte, chunk+4096)
	off := int((4096 - uintptr(unsafe.Pointer(&raw[0]))%4096) % 4096)
	buf := raw[off : off+chunk]
	for i := range buf {
		buf[i] = byte(i)
	}
	written := &ciCount{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer f.Close()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for i := range 10000 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			n, err := f.WriteAt(buf, int64(i%(size/chunk))*chunk)
			if err != nil {
				return
			}
			if !direct {
				f.Sync()
			}
			written.add(n)
		}
	}()
	return written, nil
}

// ciDDBurst writes 192 MB with dd, direct (or synced where direct I/O is
// refused), in the given directory, and says how and when.
func ciDDBurst(dir string) (string, error) {
	of := filepath.Join(dir, "burst")
	defer os.Remove(of)
	var err error
	for _, mode := range []string{"oflag=direct", "conv=fsync"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		start := time.Now()
		var out []byte
		out, err = exec.CommandContext(ctx, "dd", "if=/dev/zero", "of="+of, "bs=1M", "count=192", mode).CombinedOutput()
		cancel()
		if err == nil {
			return fmt.Sprintf("dd 192 MB %s at %s in %v", mode, start.Format("15:04:05.000"),
				time.Since(start).Round(time.Millisecond)), nil
		}
		err = fmt.Errorf("dd %s: %v\n%s", mode, err, out)
	}
	return "", err
}

func ciStartLogger(t *testing.T, cfg, interval string, samples int, archive string) *exec.Cmd {
	t.Helper()
	c := exec.Command("pmlogger", "-c", cfg, "-t", interval, "-s", strconv.Itoa(samples),
		"-l", archive+".log", archive)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.ProcessState == nil {
			c.Process.Kill()
			c.Wait()
		}
	})
	return c
}

type ciAligned struct {
	at    float64 // seconds since the epoch
	value uint64
}

// ciAlignedFetches fetches metric through pmcd 0.2 ms after each of n
// whole seconds.
func ciAlignedFetches(bin string, n int, metric string) ([]ciAligned, error) {
	out, err := exec.Command(bin, strconv.Itoa(n), "200", metric).CombinedOutput()
	var vals []ciAligned
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		at, err1 := strconv.ParseFloat(f[0], 64)
		v, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 == nil && err2 == nil {
			vals = append(vals, ciAligned{at, v})
		}
	}
	if err != nil {
		return vals, fmt.Errorf("%v: %s", err, out)
	}
	return vals, nil
}

// ciRecord is one archive record of our metrics: its time (seconds since
// the first record's midnight) and each metric's values by instance name
// ("" for a singular metric).
type ciRecord struct {
	at     float64
	values map[string]map[string]float64
}

func (r ciRecord) get(metric, inst string) (float64, bool) {
	v, ok := r.values[metric][inst]
	return v, ok
}

var (
	ciRecordHead = regexp.MustCompile(`^(\d\d):(\d\d):(\d\d\.\d+)\s+\d+ metrics?$`)
	ciMetricHead = regexp.MustCompile(`^\s+\d+\.\d+\.\d+ \(([^)]+)\):(.*)$`)
	ciValue      = regexp.MustCompile(`^\s*(?:inst \[\d+ or "([^"]*)"\] )?value (\S+)\s*$`)
)

// ciReadArchive reads the records of an archive with pmdumplog, which
// prints every logged value exactly as fetched, with the record's time to
// the microsecond.
func ciReadArchive(t *testing.T, archive string) []ciRecord {
	t.Helper()
	out := mustRun(t, time.Minute, "pmdumplog", archive)
	var recs []ciRecord
	var metric string
	day := 0.0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := ciRecordHead.FindStringSubmatch(line); m != nil {
			h, _ := strconv.Atoi(m[1])
			mi, _ := strconv.Atoi(m[2])
			s, _ := strconv.ParseFloat(m[3], 64)
			at := day + float64(h*3600+mi*60) + s
			if n := len(recs); n > 0 && at < recs[n-1].at-12*3600 {
				day += 86400 // past midnight
				at += 86400
			}
			recs = append(recs, ciRecord{at: at, values: map[string]map[string]float64{}})
			metric = ""
			continue
		}
		if len(recs) == 0 {
			continue
		}
		rest := line
		if m := ciMetricHead.FindStringSubmatch(line); m != nil {
			metric, rest = m[1], m[2]
		}
		m := ciValue.FindStringSubmatch(rest)
		if m == nil || metric == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		r := recs[len(recs)-1]
		if r.values[metric] == nil {
			r.values[metric] = map[string]float64{}
		}
		r.values[metric][m[1]] = v
	}
	// pmlogger's own records hold none of our metrics.
	var ours []ciRecord
	for _, r := range recs {
		if _, ok := r.values["kernel.all.intr"]; ok {
			ours = append(ours, r)
		}
	}
	if len(ours) < 4 {
		t.Fatalf("%s: %d records of our metrics", archive, len(ours))
	}
	return ours
}

// ciRate is pmdalinux's counter converted to a rate between records k-1
// and k, as pmval converts it: the delta over the records' timestamps.
func ciRate(recs []ciRecord, k int, metric, inst string) (float64, bool) {
	a, okA := recs[k-1].get(metric, inst)
	b, okB := recs[k].get(metric, inst)
	dt := recs[k].at - recs[k-1].at
	if !okA || !okB || b < a || dt <= 0 {
		return 0, false
	}
	return (b - a) / dt, true
}

func ciQuantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// ciReport gathers the figures and the verdicts of one analysis.
type ciReport struct {
	t     *testing.T
	dev   string
	lines []string
	fails []string
}

func (r *ciReport) logf(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}
func (r *ciReport) failf(format string, args ...any) {
	r.fails = append(r.fails, fmt.Sprintf(format, args...))
}

// finish prints the report; strict turns its failures into the test's.
func (r *ciReport) finish(strict bool) {
	r.t.Helper()
	r.t.Log("\n" + strings.Join(r.lines, "\n"))
	for _, f := range r.fails {
		if strict {
			r.t.Error(f)
		} else {
			r.t.Log("would fail: " + f)
		}
	}
}

func (r *ciReport) inst(p ciPair) string {
	if p.inst == "disk" {
		return r.dev
	}
	return p.inst
}

// ciAnalyse compares the archives' figures (see testClientIntervals).
func ciAnalyse(t *testing.T, one, ten []ciRecord, dev string) *ciReport {
	t.Helper()
	r := &ciReport{t: t, dev: dev}
	if r.dev == "" {
		r.dev = ciBusiestDisk(ten)
	}
	r.logf("records: %d at 1 s, %d at 10 s; fetch phase %s (1 s), %s (10 s) past the whole second; disk %s",
		len(one), len(ten), ciPhase(one), ciPhase(ten), r.dev)
	r.logf("%-42s %-6s %-8s %4s %5s %8s %8s %13s %9s", "hostcache figure vs pmdalinux counter", "inst", "interval",
		"n", "busy", "same", "p90", "same(busy)", "aligned")
	for _, p := range ciPairs {
		for _, c := range []struct {
			label string
			recs  []ciRecord
		}{{"1 s", one}, {"10 s", ten}} {
			r.agreement(p, c.label, c.recs)
		}
	}
	r.burstPeak(one, ten)
	r.iostat(ten)
	return r
}

// agreement is one row of the table: every record after the first (whose
// figure is a first fetch's newest step, with no record before it to rate
// pmdalinux's counter over).
//
// A fetch is served the newest sample, so hostcache's interval for a
// record ends at the sample before the fetch, pmdalinux's at the fetch
// itself: the same length, shifted by the sample's age at the fetch. An
// agent following its readers samples a few milliseconds before the
// loggers' fetches; one on the fixed grid (reader_phases 0, and every
// agent until it has learnt them) samples half a second past each whole
// second, half a second before these fetches: at 10 s a twentieth of the
// interval, at 1 s half of it. A burst of load at an
// edge of a record (another process's build, a journal commit) then falls
// in one figure and not the other. So the figure must agree with either
// "same" (the records as they stand) or "aligned": pmdalinux's counter
// interpolated to the agent's sample times (linearly between the two
// records around each), a rate over the very span hostcache's figure
// covers, which a burst inside a record smears. At 1 s the limit is 10%, not 5%: interpolating within a
// second assumes a steady load, and context switches come in bursts (one
// CI run measured 6%). The error this test exists for was 87-100%.
func (r *ciReport) agreement(p ciPair, label string, recs []ciRecord) {
	inst := r.inst(p)
	var same, aligned, busy []float64
	for k := 1; k < len(recs); k++ {
		ours, ok := recs[k].get(p.ours, inst)
		if !ok {
			continue
		}
		theirs, ok := ciRate(recs, k, p.theirs, inst)
		if !ok {
			continue
		}
		theirs *= p.scale
		e := math.Abs(ours-theirs) / math.Max(math.Abs(theirs), p.floor)
		same = append(same, e)
		if math.Abs(theirs) >= p.floor {
			busy = append(busy, e)
		}
		if est, ok := ciSampledRate(recs, k, p.theirs, inst); ok {
			est *= p.scale
			aligned = append(aligned, math.Abs(ours-est)/math.Max(math.Abs(est), p.floor))
		}
	}
	shown := inst
	if shown == "" {
		shown = "-"
	}
	if len(same) == 0 {
		r.logf("%-42s %-6s %-8s %4d", p.ours, shown, label, 0)
		r.failf("%s %s: no record to compare with %s", label, p.ours, p.theirs)
		return
	}
	med, p90, medBusy := ciQuantile(same, 0.5), ciQuantile(same, 0.9), ciQuantile(busy, 0.5)
	medAligned := ciQuantile(aligned, 0.5)
	r.logf("%-42s %-6s %-8s %4d %5d %7.2f%% %7.2f%% %12.2f%% %8.2f%%", p.ours, shown, label, len(same), len(busy),
		100*med, 100*p90, 100*medBusy, 100*medAligned)
	limit := 0.05
	if label == "1 s" {
		limit = 0.10
	}
	// Either estimate of pmdalinux's figure may be the better one: the
	// same records when a burst lies inside them (a dd), the aligned one
	// when bursts of other load lie at their edges. A wrong figure misses
	// both.
	if len(aligned) < len(same)/2 || !(medAligned <= limit || med <= limit) {
		r.failf("%s %s[%s]: median relative error %.1f%% over %d records against pmdalinux's %s over the agent's sample times (%.1f%% over the same records)",
			label, p.ours, shown, 100*medAligned, len(aligned), p.theirs, 100*med)
	}
}

// ciSampleTime is the time of the agent's newest sample when a fetch at
// f was served: the last half second at or before it. ok is false when
// the fetch came so close after that half second that the sample might
// not have been published yet.
func ciSampleTime(f float64) (float64, bool) {
	s := math.Floor(f-0.5) + 0.5
	return s, f-s >= 0.02
}

// ciCounterAt is pmdalinux's counter at time s, interpolated linearly
// between the two records around it.
func ciCounterAt(recs []ciRecord, s float64, metric, inst string) (float64, bool) {
	for j := 1; j < len(recs); j++ {
		if recs[j-1].at > s || recs[j].at < s {
			continue
		}
		a, okA := recs[j-1].get(metric, inst)
		b, okB := recs[j].get(metric, inst)
		dt := recs[j].at - recs[j-1].at
		if !okA || !okB || b < a || dt <= 0 {
			return 0, false
		}
		return a + (b-a)*(s-recs[j-1].at)/dt, true
	}
	return 0, false
}

// ciSampledRate is pmdalinux's counter as a rate over the span hostcache's
// figure in record k covers: between the samples the fetches of records
// k-1 and k were served.
func ciSampledRate(recs []ciRecord, k int, metric, inst string) (float64, bool) {
	s0, ok0 := ciSampleTime(recs[k-1].at)
	s1, ok1 := ciSampleTime(recs[k].at)
	if !ok0 || !ok1 || s1 <= s0 {
		return 0, false
	}
	a, okA := ciCounterAt(recs, s0, metric, inst)
	b, okB := ciCounterAt(recs, s1, metric, inst)
	if !okA || !okB {
		return 0, false
	}
	return (b - a) / (s1 - s0), true
}

// ciPhase is the median offset of the records' times past whole seconds.
func ciPhase(recs []ciRecord) string {
	var ph []float64
	for _, r := range recs {
		ph = append(ph, r.at-math.Floor(r.at))
	}
	return fmt.Sprintf("%.3f s", ciQuantile(ph, 0.5))
}

// ciBusiestDisk is the disk pmdalinux saw write most over the archive.
func ciBusiestDisk(recs []ciRecord) string {
	best, dev := -1.0, ""
	first, last := recs[0].values["disk.dev.write_bytes"], recs[len(recs)-1].values["disk.dev.write_bytes"]
	for inst, b := range last {
		if a, ok := first[inst]; ok && b-a > best {
			best, dev = b-a, inst
		}
	}
	return dev
}

// burstPeak: the 10 s record holding the dd burst (the one in which
// pmdalinux's write rate is highest) logged a peak at least twice its
// average, and within 15% of the highest rate the 1 s client logged over
// the same seconds. Both loggers fetch at the same phase, so the 1 s
// client's intervals are the very sampling steps the 10 s peak is taken
// over.
func (r *ciReport) burstPeak(one, ten []ciRecord) {
	const rate, peak, theirs = "hostcache.rate.disk.dev.write_bytes", "hostcache.max.rate.disk.dev.write_bytes", "disk.dev.write_bytes"
	k, best := -1, 0.0
	for i := 1; i < len(ten); i++ {
		if v, ok := ciRate(ten, i, theirs, r.dev); ok && v > best {
			k, best = i, v
		}
	}
	if k < 0 {
		r.failf("burst: no 10 s record with writes on %s", r.dev)
		return
	}
	avg, okA := ten[k].get(rate, r.dev)
	pk, okP := ten[k].get(peak, r.dev)
	true1, their1, n := 0.0, 0.0, 0
	for i := 1; i < len(one); i++ {
		if one[i].at <= ten[k-1].at+0.5 || one[i].at > ten[k].at+0.5 {
			continue
		}
		if v, ok := one[i].get(rate, r.dev); ok {
			true1, n = math.Max(true1, v), n+1
		}
		if v, ok := ciRate(one, i, theirs, r.dev); ok {
			their1 = math.Max(their1, v)
		}
	}
	r.logf("burst: 10 s record %d (%.0f s in): pmdalinux %.0f KB/s, hostcache.rate %.0f KB/s, hostcache.max.rate %.0f KB/s "+
		"(%.1fx the average); 1 s client's highest hostcache.rate over its %d records in those seconds %.0f KB/s "+
		"(pmdalinux's at 1 s %.0f KB/s); peak/1 s highest %.3f", k, ten[k].at-ten[0].at, best, avg, pk, pk/avg, n, true1,
		their1, pk/true1)
	switch {
	case !okA || !okP:
		r.failf("burst: the 10 s record has no hostcache.rate (%v) or hostcache.max.rate (%v) for %s", okA, okP, r.dev)
	case n < 8:
		r.failf("burst: only %d records of the 1 s client in the 10 s record's seconds", n)
	default:
		if pk < 2*avg {
			r.failf("burst: logged 10 s peak %.0f KB/s is not twice the record's average %.0f KB/s", pk, avg)
		}
		if math.Abs(pk-true1) > 0.15*true1 {
			r.failf("burst: logged 10 s peak %.0f KB/s, the 1 s client's highest rate in those seconds %.0f KB/s", pk, true1)
		}
	}
}

// iostat: hostcache.disk.dev.await and util at 10 s against iostat.conf's
// derivation over pmdalinux's raw counters in the same two records:
// await = delta(total_rawactive) / delta(total) in ms, util = 100 *
// rate(avactive) / 1000 in percent, for the records with I/O (the trickle
// gives every record some 500 writes).
func (r *ciReport) iostat(ten []ciRecord) {
	var awaitErr, utilErr []float64
	for k := 1; k < len(ten); k++ {
		d := func(m string) (float64, bool) {
			a, okA := ten[k-1].get(m, r.dev)
			b, okB := ten[k].get(m, r.dev)
			return b - a, okA && okB && b >= a
		}
		total, ok1 := d("disk.dev.total")
		raw, ok2 := d("disk.dev.total_rawactive")
		av, ok3 := d("disk.dev.avactive")
		await, ok4 := ten[k].get("hostcache.disk.dev.await", r.dev)
		util, ok5 := ten[k].get("hostcache.disk.dev.util", r.dev)
		if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || total < 20 {
			continue // too little I/O for an average wait to mean anything
		}
		dt := ten[k].at - ten[k-1].at
		theirAwait, theirUtil := raw/total, 100*av/1000/dt
		// Floors: 0.05 ms of wait and 0.5% utilisation are noise.
		ea := math.Abs(await-theirAwait) / math.Max(theirAwait, 0.05)
		eu := math.Abs(util-theirUtil) / math.Max(theirUtil, 0.5)
		awaitErr, utilErr = append(awaitErr, ea), append(utilErr, eu)
		r.logf("iostat 10 s record %d: %4.0f I/Os; await %.3f ms (iostat.conf %.3f, %.1f%% off), util %.2f%% (iostat.conf %.2f%%, %.1f%% off)",
			k, total, await, theirAwait, 100*ea, util, theirUtil, 100*eu)
	}
	if len(awaitErr) < 3 {
		r.failf("iostat: only %d records of 10 s with I/O on %s", len(awaitErr), r.dev)
		return
	}
	ma, mu := ciQuantile(awaitErr, 0.5), ciQuantile(utilErr, 0.5)
	r.logf("iostat at 10 s on %s: await median %.1f%% p90 %.1f%%, util median %.1f%% p90 %.1f%% (%d records)", r.dev,
		100*ma, 100*ciQuantile(awaitErr, 0.9), 100*mu, 100*ciQuantile(utilErr, 0.9), len(awaitErr))
	if ma > 0.10 || mu > 0.10 {
		r.failf("iostat: median error against iostat.conf's derivation: await %.1f%%, util %.1f%%", 100*ma, 100*mu)
	}
}

// aligned: 0.2 ms after each whole second, the raw counter never repeats.
func (r *ciReport) aligned(vals []ciAligned, err error) {
	if err != nil {
		r.failf("aligned fetches: %v", err)
	}
	repeats, late := 0, 0.0
	for i, v := range vals {
		late = math.Max(late, v.at-math.Floor(v.at))
		if i > 0 && v.value == vals[i-1].value {
			repeats++
		}
	}
	r.logf("aligned fetches through pmcd: %d of hostcache.kernel.all.intr, at most %.2f ms past the whole second; %d repeats",
		len(vals), 1000*late, repeats)
	if len(vals) < 20 || repeats > 0 {
		r.failf("aligned fetches: %d values, %d repeats: %v", len(vals), repeats, vals)
	}
}
