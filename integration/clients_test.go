package integration

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// metricNames lists the installed hostcache namespace. Every MMV dynamic
// root has its control metrics below it, so none is listed as a metric
// (TestFreshInstall holds that).
func metricNames(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, n := range strings.Fields(mustRun(t, 20*time.Second, "pminfo", "hostcache")) {
		if !isMMVFileName(n) {
			names = append(names, n)
		}
	}
	return names
}

// mmvRoot matches the six MMV roots and the part of a name after them.
var mmvRoot = regexp.MustCompile(`^hostcache\.(?:(?:rate|max|min|max\.rate|min\.rate)\.)?mmv\.([^.]+)\.`)

// isMMVFileName says whether a name is one an MMV file gives, below the
// MMV roots: those come and go with the files while TestPCP's MMV check
// runs beside PCP's clients, and that check holds them to pmdammv's. The
// roots' control metrics stay.
func isMMVFileName(name string) bool {
	m := mmvRoot.FindStringSubmatch(name)
	return m != nil && m[1] != "control"
}

// noValue returns the metrics that pminfo -f shows without values.
func noValue(t *testing.T, names ...string) map[string]bool {
	t.Helper()
	out, _ := run(t, 60*time.Second, "pminfo", append([]string{"-f"}, names...)...)
	missing := map[string]bool{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") && !strings.Contains(line, "No value") {
			cur = strings.TrimSpace(line)
		}
		if strings.Contains(line, "No value(s) available") {
			missing[cur] = true
		}
	}
	return missing
}

// testPminfo: everything has a descriptor, help and labels without error,
// and every metric has values unless pmdalinux has none for its twin.
func testPminfo(t *testing.T) {
	names := metricNames(t)
	if len(names) < 100 {
		t.Fatalf("only %d hostcache metrics", len(names))
	}
	// By name, not the whole tree: the MMV files' names come and go while
	// TestPCP's MMV check runs beside (isMMVFileName).
	out, err := run(t, 2*time.Minute, "pminfo", append([]string{"-fdtTl"}, names...)...)
	if err != nil {
		t.Fatalf("pminfo -fdtTl of %d names: %v\n%s", len(names), err, out)
	}
	// pminfo reports a failed lookup as "Error: ..." (help text may say "errors").
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "Error: ") || strings.Contains(line, "Unknown metric") || strings.Contains(line, "pmLookup") {
			t.Errorf("pminfo -fdtTl: %s", line)
		}
	}
	missing := noValue(t, names...)
	var missingTwins []string
	for name := range missing {
		if twin := twinOf(name); twin != "" {
			missingTwins = append(missingTwins, twin)
		}
	}
	twinMissing := map[string]bool{}
	if len(missingTwins) > 0 {
		twinMissing = noValue(t, missingTwins...)
	}
	for name := range missing {
		twin := twinOf(name)
		if reason, ok := deliberatelyNoValue[twin]; ok {
			t.Logf("%s has no value: %s", name, reason)
			continue
		}
		if reason, ok := gaugesDeclaredCounters[twin]; ok {
			t.Logf("%s may have no value: %s goes down as well as up (%s)", name, twin, reason)
			continue
		}
		if twin == "" || !twinMissing[twin] {
			t.Errorf("%s has no value (its pmdalinux twin %q has one)", name, twin)
		}
	}
	t.Logf("%d metrics, %d values", len(names), len(valueLine.FindAllStringIndex(out, -1)))
}

// deliberatelyNoValue lists metrics documented to have no value where
// pmdalinux shows one, with the reason.
var deliberatelyNoValue = map[string]string{
	"network.interface.speed":    "sysfs reports -1 (unknown) for virtual NICs; pmdalinux prints a bogus figure",
	"network.interface.baudrate": "derived from speed, unknown likewise",
	// pmdalinux's fetch checks that /proc/net/rpc/nfsd was read for every
	// server figure but these three, which it shows as 0 on a host without
	// an NFS server; we show none, as for the other server figures.
	"rpc.server.ra_size":   "no NFS server here; pmdalinux prints 0 without reading anything",
	"rpc.server.ra_hits":   "no NFS server here; pmdalinux prints 0 without reading anything",
	"rpc.server.ra_misses": "no NFS server here; pmdalinux prints 0 without reading anything",
	// Beside pmdalinux the agent runs as the pcp user, and the kernel
	// prints a serial line's counters only to a reader with CAP_SYS_ADMIN
	// (pmdalinux and the stand-in run as root and have them).
	"tty.serial.tx":      "counters the kernel hides from the pcp user",
	"tty.serial.rx":      "counters the kernel hides from the pcp user",
	"tty.serial.frame":   "counters the kernel hides from the pcp user",
	"tty.serial.parity":  "counters the kernel hides from the pcp user",
	"tty.serial.brk":     "counters the kernel hides from the pcp user",
	"tty.serial.overrun": "counters the kernel hides from the pcp user",
	// Beside pmdalinux the agent runs as the pcp user; the kernel shows a
	// process's io to its owner alone, and pmcd's pcp children, having
	// changed user, are not dumpable: pmdaproc runs as root.
	"proc.io.rchar":                 "the io of processes the pcp user may not trace",
	"proc.io.wchar":                 "the io of processes the pcp user may not trace",
	"proc.io.syscr":                 "the io of processes the pcp user may not trace",
	"proc.io.syscw":                 "the io of processes the pcp user may not trace",
	"proc.io.read_bytes":            "the io of processes the pcp user may not trace",
	"proc.io.write_bytes":           "the io of processes the pcp user may not trace",
	"proc.io.cancelled_write_bytes": "the io of processes the pcp user may not trace",
	"proc.psinfo.environ":           "the environment of processes the pcp user may not trace",
	"proc.namespaces.envid":         "OpenVZ's envID line, which this kernel does not print; pmdaproc answers PM_ERR_APPVERSION",
}

// twinOf names the pmdalinux metric a hostcache metric mirrors.
func twinOf(name string) string {
	rest := strings.TrimPrefix(name, "hostcache.")
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "max."), "min.")
	rest = strings.TrimPrefix(rest, "rate.")
	if strings.HasPrefix(rest, "control.") || strings.HasPrefix(rest, "kernel.cpu.util.") || mmvControlOwn[rest] {
		return ""
	}
	return rest
}

// mmvControlOwn are the MMV catalog's metrics pmdammv has no twin of
// (mmv.control.files has one).
var mmvControlOwn = map[string]bool{"mmv.control.metrics": true, "mmv.control.changes": true}

// isComputed reports whether a metric is one the agent computes over each
// client's interval (a rate or a peak): it has no descriptor twin.
func isComputed(name string) bool {
	for _, p := range []string{"hostcache.rate.", "hostcache.max.", "hostcache.min."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

var descRE = regexp.MustCompile(`(?m)^(\S+)\n\s+Data Type: (.+?)  InDom: (\S+).*\n\s+Semantics: (\S+)  Units: (.*)$`)

type descInfo struct{ typ, indom, sem, units string }

func descs(t *testing.T, names []string) map[string]descInfo {
	t.Helper()
	out, _ := run(t, time.Minute, "pminfo", append([]string{"-d"}, names...)...)
	m := map[string]descInfo{}
	for _, x := range descRE.FindAllStringSubmatch(out, -1) {
		m[x[1]] = descInfo{typ: x[2], indom: x[3], sem: x[4], units: x[5]}
	}
	return m
}

// testTwins compares every hostcache.X with pmdalinux's X: type,
// semantics, units, whether it has instances, and the instance names.
func testTwins(t *testing.T) {
	var ours, twins []string
	for _, n := range metricNames(t) {
		if tw := twinOf(n); tw != "" && !isComputed(n) {
			ours, twins = append(ours, n), append(twins, tw)
		}
	}
	od, td := descs(t, ours), descs(t, twins)
	both := make([]string, 0, 2*len(ours))
	for i, n := range ours {
		both = append(both, n, twins[i])
	}
	vals := valuesOf(t, both...)
	compared, matched := 0, 0
	for i, n := range ours {
		o, ok1 := od[n]
		w, ok2 := td[twins[i]]
		if !ok1 || !ok2 {
			t.Errorf("%s: no descriptor for it or its twin", n)
			continue
		}
		compared++
		nullO, nullW := o.indom == "PM_INDOM_NULL", w.indom == "PM_INDOM_NULL"
		if o.typ != w.typ || o.sem != w.sem || o.units != w.units || nullO != nullW {
			t.Errorf("%s is %+v, pmdalinux %s is %+v", n, o, twins[i], w)
			continue
		}
		// A derived twin (the iostat figures) has no values on a first fetch:
		// compare instances only where both have values. Processes come
		// and go between the two fetches: testProcTwins compares those
		// both list.
		churns := strings.HasPrefix(n, "hostcache.proc.")
		if ov, tv := vals[n], vals[twins[i]]; !nullO && !churns && len(ov) > 0 && len(tv) > 0 &&
			!sameInstances(ov, tv) {
			t.Errorf("%s instances differ from %s: %v against %v", n, twins[i], ov, tv)
			continue
		}
		matched++
	}
	for _, n := range []string{"hinv.ncpu", "mem.physmem", "kernel.all.hz", "kernel.all.boottime"} {
		if got, want := values(t, "hostcache."+n)[""], values(t, n)[""]; got != want {
			t.Errorf("hostcache.%s = %s, pmdalinux %s", n, got, want)
		}
	}
	// Same name, same quantity, instance by instance. pmdalinux 6.0.3's
	// network.interface.type is the ARPHRD number of /sys/class/net/X/type
	// (lo is 772), whatever its help text says about name_assign_type.
	for _, n := range []string{"network.interface.type", "network.interface.virtual"} {
		if got, want := values(t, "hostcache."+n), values(t, n); !maps.Equal(got, want) {
			t.Errorf("hostcache.%s = %v, pmdalinux %v", n, got, want)
		}
	}
	t.Logf("compared %d metrics with their pmdalinux twins, %d matched", compared, matched)
	var counters, counterTwins []string
	for i, n := range ours {
		if od[n].sem == "counter" {
			counters, counterTwins = append(counters, n), append(counterTwins, twins[i])
		}
	}
	vc, vm := compareCounterValues(t, counters, counterTwins)
	if vc == 0 {
		t.Error("no counter values compared")
	}
	t.Logf("compared %d counter values (metric x instance) with pmdalinux's, %d between its two readings", vc, vm)
}

// valuesOf fetches many metrics in one pminfo -f, each beside the next:
// metric to instance name ("" for a singular metric) to the printed value,
// as values gives them one at a time.
func valuesOf(t *testing.T, names ...string) map[string]map[string]string {
	t.Helper()
	return parseValues(mustRun(t, 2*time.Minute, "pminfo", append([]string{"-f"}, names...)...))
}

// parseValues reads pminfo -f's output of many metrics.
func parseValues(out string) map[string]map[string]string {
	vals := map[string]map[string]string{}
	var cur map[string]string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") && !strings.Contains(line, "No value") {
			cur = map[string]string{}
			vals[strings.TrimSpace(line)] = cur
			continue
		}
		if m := valueLine.FindStringSubmatch(line); m != nil && cur != nil {
			cur[m[2]] = m[3]
		}
	}
	return vals
}

func sameInstances(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// testPmstore: a good value is stored and read back; a negative one, one
// out of bounds, and a store to a read-only metric are refused with the
// right message and change nothing.
func testPmstore(t *testing.T) {
	const m = "hostcache.control.interval"
	out := mustRun(t, 20*time.Second, "pmstore", m, "750")
	if !strings.Contains(out, "new value=750") {
		t.Fatalf("pmstore: %s", out)
	}
	refusals := map[string]string{
		"-5":      "Negative value",
		"50":      "Bad input to pmstore",
		"9999999": "Bad input to pmstore",
		"abc":     "",
	}
	for v, msg := range refusals {
		out, _ := run(t, 20*time.Second, "pmstore", m, v)
		if strings.Contains(out, "new value="+v+"\n") || (msg != "" && !strings.Contains(out, msg)) {
			t.Errorf("pmstore %s %s: %s", m, v, out)
		}
		if got := values(t, m)[""]; got != "750" {
			t.Errorf("after refused store of %s the interval is %s", v, got)
		}
	}
	if out, _ := run(t, 20*time.Second, "pmstore", "hostcache.mem.physmem", "1"); !strings.Contains(out, "No permission") {
		t.Errorf("store to a read-only metric: %s", out)
	}
	out = mustRun(t, 20*time.Second, "pmstore", "-i", "cpu", "hostcache.control.collector.interval", "2000")
	iv := values(t, "hostcache.control.collector.interval")
	if iv["cpu"] != "2000" || iv["memory"] != "750" || iv["netproto"] != "5000" || iv["filesys"] != "10000" {
		t.Errorf("per-collector store: %s then %v (netproto and filesys keep their own)", out, iv)
	}
	// 0 goes back to what the agent started with, everywhere.
	mustRun(t, 20*time.Second, "pmstore", m, "0")
	iv = values(t, "hostcache.control.collector.interval")
	if values(t, m)[""] != "1000" || iv["cpu"] != "1000" || iv["netproto"] != "5000" {
		t.Errorf("after storing 0: default %v, collectors %v", values(t, m), iv)
	}
	t.Logf("pmstore round trip: %s", strings.TrimSpace(out))
}

// testPmval: rates arrive as numbers, and an instance is found by the first
// word of its name as users type it.
func testPmval(t *testing.T) {
	out := mustRun(t, 30*time.Second, "pmval", "-s", "3", "-t", "0.5", "hostcache.rate.kernel.all.pswitch")
	nums := regexp.MustCompile(`(?m)^\s*[0-9.eE+-]+\s*$`).FindAllString(out, -1)
	if len(nums) != 3 {
		t.Errorf("pmval of a rate:\n%s", out)
	}
	for _, n := range nums {
		if f, err := strconv.ParseFloat(strings.TrimSpace(n), 64); err != nil || f <= 0 {
			t.Errorf("context switch rate %q", n)
		}
	}
	out = mustRun(t, 30*time.Second, "pmval", "-s", "1", "-i", "5", "hostcache.kernel.all.load")
	if !regexp.MustCompile(`(?m)^\s+5\s*\n\s+[0-9.E+-]+\s*$`).MatchString(out) {
		t.Errorf("pmval -i 5:\n%s", out)
	}
}

// testDbpmda drives a fresh PMDA process with PCP's debugger, which plays
// pmcd's part and decodes every reply with libpcp.
func testDbpmda(t *testing.T, pmdaDir string) {
	logFile := filepath.Join(t.TempDir(), "dbpmda.log")
	script := strings.Join([]string{
		"open pipe " + filepath.Join(pmdaDir, "pmdahostcache") + " -d 396 -l " + logFile + " -U root",
		"desc hostcache.kernel.all.cpu.user",
		"fetch hostcache.kernel.all.cpu.user hostcache.kernel.all.load",
		"instance 396.2",
		`instance 396.2 "5"`,
		"text hostcache.kernel.all.load",
		"text indom 396.1",
		"label domain",
		// dbpmda plays pmcd: it says who its client is, root, as pmcd
		// does through ATTR PDUs, so the store is allowed.
		`attr 11 "0"`,
		`attr 12 "0"`,
		`store hostcache.control.interval "750"`,
		`store hostcache.control.interval "-1"`,
		"fetch hostcache.control.interval",
		"close", "",
	}, "\n")
	cmd := runIn(t, pmdaDir, script, "dbpmda", "-n", "root", "-e")
	for _, want := range []string{
		"Semantics: counter  Units: millisec",
		`inst: 15 name: "15 minute"`,
		"[  0] inst: 5\n",
		"agent=\"hostcache\"",
		"1000 -> 750",
		"Error PDU: Negative value",
		"value 750",
		"CPU", // help text of the per-CPU indom
	} {
		if !strings.Contains(cmd, want) {
			t.Errorf("dbpmda output lacks %q:\n%s", want, cmd)
		}
	}
	if strings.Contains(cmd, "not available") || strings.Contains(cmd, "Error PDU: Unknown") {
		t.Errorf("dbpmda reported a missing reply:\n%s", cmd)
	}
}

// testPmlogger records hostcache for a few seconds, then reads the archive
// back with pmdumplog and checks it with pmlogcheck. It logs every name
// but the MMV files' (metricNames), which come and go while TestPCP's MMV
// check runs beside.
func testPmlogger(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	os.WriteFile(cfg, []byte("log mandatory on 1 sec {\n    "+strings.Join(metricNames(t), "\n    ")+"\n}\n"), 0o644)
	archive := filepath.Join(dir, "hostcache")
	if out, err := run(t, time.Minute, "pmlogger", "-c", cfg, "-s", "4", "-l", filepath.Join(dir, "pmlogger.log"),
		archive); err != nil {
		t.Fatalf("pmlogger: %v\n%s\nits log:\n%s", err, out, readText(t, filepath.Join(dir, "pmlogger.log")))
	}
	out := mustRun(t, time.Minute, "pmdumplog", archive, "hostcache.kernel.all.cpu.user", "hostcache.rate.kernel.all.pswitch")
	if n := strings.Count(out, "hostcache.kernel.all.cpu.user"); n < 3 {
		t.Errorf("archive has %d samples of cpu.user:\n%s", n, out)
	}
	if !strings.Contains(out, "hostcache.rate.kernel.all.pswitch") {
		t.Errorf("archive lacks rates:\n%s", out)
	}
	mustRun(t, time.Minute, "pmlogcheck", archive)
}

// testLogs: pmcd never dropped us, and our own log has no errors.
func testLogs(t *testing.T, logDir string, pmcdFrom int64) {
	data, _ := os.ReadFile(filepath.Join(logDir, "pmcd.log"))
	if int64(len(data)) > pmcdFrom {
		for _, line := range strings.Split(string(data[pmcdFrom:]), "\n") {
			// Install's own restart logs "unconfigured"; anything else
			// about us in pmcd.log means pmcd dropped the agent.
			if strings.Contains(line, "hostcache") && (strings.Contains(line, "protocol failure") ||
				strings.Contains(line, "timeout") || strings.Contains(line, "unexpected")) {
				t.Errorf("pmcd.log: %s", line)
			}
		}
	}
	own, err := os.ReadFile(filepath.Join(logDir, "hostcache.log"))
	if err != nil {
		t.Fatalf("our log: %v", err)
	}
	for _, bad := range []string{") Error: ", ") Critical: ", "WARNING: DATA RACE", "panic"} {
		if strings.Contains(string(own), bad) {
			t.Errorf("hostcache.log contains %s", bad)
		}
	}
}

// testRemove: Remove leaves pmcd without hostcache and the process gone.
func testRemove(t *testing.T) {
	mustRun(t, 2*time.Minute, filepath.Join(repoRoot, "scripts", "remove-pmda.sh"))
	if out, _ := run(t, 20*time.Second, "pminfo", "hostcache"); !strings.Contains(out, "Unknown metric name") {
		t.Errorf("after Remove pminfo hostcache says: %s", out)
	}
	conf, _ := os.ReadFile(pcpVar(t, "PCP_PMCDCONF_PATH"))
	if regexp.MustCompile(`(?m)^hostcache\s`).Match(conf) {
		t.Error("pmcd.conf still has a hostcache line")
	}
	waitFor(t, "pmdahostcache to exit", 10*time.Second, func() bool {
		out, _ := run(t, 5*time.Second, "pgrep", "-x", "pmdahostcache")
		return strings.TrimSpace(out) == ""
	})
	mustRun(t, 10*time.Second, "pmprobe", "pmcd.version")
	for _, tool := range []string{"pmlogconf", "pmieconf"} {
		if fileExists(filepath.Join(pcpVar(t, "PCP_VAR_DIR"), "config", tool, "hostcache")) {
			t.Errorf("Remove left the %s files behind", tool)
		}
	}
}
