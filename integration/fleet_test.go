package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testFleet: the fleet as an administrator builds it, with PCP's own
// tools and Debian's redis-server. A pmlogger configured from our pmlogconf
// groups logs hostcache, the flight recorder writes its archive, and
// pmseries loads both into a redis of the test's own; pmseries then gives
// their series, descriptors, labels, values and a rate() expression, and
// pmproxy (its own, on its own ports) serves the live values through pmcd
// (/pmapi/fetch), the series (/series/query, /series/values) and
// OpenMetrics with our names and labels (/metrics). docs/fleet.md gives
// the same steps by hand.
func testFleet(t *testing.T, load *underLoad) {
	pmproxy := filepath.Join(pcpVar(t, "PCP_BINADM_DIR"), "pmproxy")
	requireTools(t, "redis-server", pmproxy, "pmseries", "pmlogconf")
	dir := t.TempDir()
	redisPort, httpPort := freePort(t), freePort(t)
	startDaemon(t, dir, "redis", "redis-server", "--port", strconv.Itoa(redisPort), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir)
	waitFor(t, "redis", 10*time.Second, func() bool { return dialable(redisPort) })
	conf := filepath.Join(dir, "pmproxy.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("[pmproxy]\npcp.enabled = true\nhttp.enabled = true\nredis.enabled = true\n"+
		"secure.enabled = false\n[redis]\nenabled = true\nservers = 127.0.0.1:%d\n[discover]\nenabled = false\n"+
		"[pmseries]\nenabled = true\n[pmsearch]\nenabled = false\n", redisPort)), 0o644)
	startDaemon(t, dir, "pmproxy", pmproxy, "-f", "-A", "-c", conf, "-p", strconv.Itoa(httpPort),
		"-s", filepath.Join(dir, "pmproxy.socket"), "-l", filepath.Join(dir, "pmproxy.log"))
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	waitFor(t, "pmproxy", 20*time.Second, func() bool { _, err := httpGet(base + "/series/ping"); return err == nil })

	checkLiveFetch(t, base)
	logged := loggedFromPmlogconf(t, dir)
	recorded := load.record(t, "10", func(args ...string) { mustRun(t, 20*time.Second, args[0], args[1:]...) })
	for _, a := range []string{logged, recorded} {
		mustRun(t, 2*time.Minute, "pmseries", "-p", strconv.Itoa(redisPort), "--load", fmt.Sprintf("{source.path: %q}", a))
	}
	// Each archive loaded is a source of its own.
	sources := mustRun(t, time.Minute, "pmseries", "-p", strconv.Itoa(redisPort), "-S")
	for _, a := range []string{logged, recorded} {
		if !strings.Contains(sources, a) {
			t.Errorf("pmseries -S does not list %s:\n%s", a, sources)
		}
	}
	series := checkSeries(t, redisPort)
	checkSeriesREST(t, base, series)
	checkOpenMetrics(t, base)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func dialable(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err == nil {
		c.Close()
	}
	return err == nil
}

// startDaemon runs a server in the foreground for the rest of the test.
func startDaemon(t *testing.T, dir, name, bin string, args ...string) {
	t.Helper()
	out, err := os.Create(filepath.Join(dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		out.Close()
		if t.Failed() {
			logged, _ := os.ReadFile(out.Name())
			t.Logf("%s said:\n%s", name, logged)
		}
	})
}

func httpGet(url string) (string, error) {
	c := http.Client{Timeout: 20 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return string(body), fmt.Errorf("%s: %s", url, resp.Status)
	}
	return string(body), err
}

// checkLiveFetch: /pmapi/fetch gives the agent's values through pmcd.
func checkLiveFetch(t *testing.T, base string) {
	t.Helper()
	body, err := httpGet(base + "/pmapi/fetch?names=hostcache.kernel.all.load")
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Values []struct {
			Name      string
			Instances []struct {
				Instance int
				Value    float64
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil || len(reply.Values) != 1 ||
		reply.Values[0].Name != "hostcache.kernel.all.load" || len(reply.Values[0].Instances) != 3 {
		t.Errorf("/pmapi/fetch: %v\n%s", err, body)
	}
	t.Logf("/pmapi/fetch: %s", body)
}

// loggedFromPmlogconf has pmlogger log for six seconds what pmlogconf
// makes of our groups (the summary and health groups are on).
func loggedFromPmlogconf(t *testing.T, dir string) string {
	t.Helper()
	config := filepath.Join(dir, "pmlogger.config")
	mustRun(t, time.Minute, "pmlogconf", "-q", config)
	text, _ := os.ReadFile(config)
	if !strings.Contains(string(text), "hostcache.kernel.cpu.util") {
		t.Fatalf("pmlogconf's configuration logs no hostcache summary:\n%s", text)
	}
	archive := filepath.Join(dir, "logged")
	mustRun(t, 2*time.Minute, "pmlogger", "-c", config, "-s", "6", "-t", "1", "-l", archive+".log", archive)
	return archive
}

var seriesID = regexp.MustCompile(`(?m)^[0-9a-f]{40}$`)

// seriesOf gives the series a pmseries query selects, sorted.
func seriesOf(t *testing.T, port, query string) []string {
	t.Helper()
	ids := seriesID.FindAllString(mustRun(t, time.Minute, "pmseries", "-p", port, query), -1)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// checkSeries queries redis with pmseries and returns the series of
// hostcache.kernel.cpu.util.user.
func checkSeries(t *testing.T, port int) string {
	t.Helper()
	p := strconv.Itoa(port)
	cpu, load := seriesOf(t, p, "hostcache.kernel.cpu.util.user"), seriesOf(t, p, "hostcache.kernel.all.load")
	if len(cpu) == 0 || len(load) == 0 {
		t.Fatalf("pmseries finds series of hostcache.kernel.cpu.util.user %v and hostcache.kernel.all.load %v", cpu, load)
	}
	checks := []struct {
		args []string
		want []string
	}{
		{[]string{"-d", cpu[0]}, []string{"PMID: 396.", "Semantics: instant", "Units: none"}},
		{[]string{"-l", cpu[0]}, []string{`"agent":"hostcache"`, `"collector":"cpu"`}},
		{[]string{"-l", load[0]}, []string{`"collector":"load"`, `"agent":"hostcache"`}},
		{[]string{"hostcache.kernel.cpu.util.user[samples:3]"}, []string{"] "}},
	}
	for _, c := range checks {
		out := mustRun(t, time.Minute, "pmseries", append([]string{"-p", p}, c.args...)...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("pmseries %s lacks %q:\n%s", strings.Join(c.args, " "), w, out)
			}
		}
	}
	checkLabelFilters(t, p, cpu, load)
	// The flight recorder's archive has the raw counters: their rate
	// over its samples is the interrupt rate, some every second.
	out := mustRun(t, time.Minute, "pmseries", "-p", p, "rate(hostcache.kernel.all.intr[samples:5])")
	rates := regexp.MustCompile(`(?m)^\s+\[.*\] (\S+) [0-9a-f]{40}$`).FindAllStringSubmatch(out, -1)
	if len(rates) < 3 {
		t.Fatalf("pmseries rate(hostcache.kernel.all.intr): %d values\n%s", len(rates), out)
	}
	for _, r := range rates {
		if v, err := strconv.ParseFloat(r[1], 64); err != nil || v <= 0 || v > 1e7 {
			t.Errorf("pmseries rate(hostcache.kernel.all.intr): %s", r[1])
		}
	}
	t.Logf("pmseries rate(hostcache.kernel.all.intr[samples:5]):\n%s", out)
	return cpu[0]
}

// checkLabelFilters: a query filtered on the item label collector selects
// a metric's series when the label is the metric's own, and none otherwise.
func checkLabelFilters(t *testing.T, port string, cpu, load []string) {
	t.Helper()
	for _, c := range []struct {
		query string
		want  []string
	}{
		{`hostcache.kernel.all.load{collector:"load"}`, load},
		{`hostcache.kernel.all.load{collector:"cpu"}`, nil},
		{`hostcache.kernel.cpu.util.user{collector:"cpu"}`, cpu},
		{`hostcache.kernel.cpu.util.user{collector:"load"}`, nil},
	} {
		if got := seriesOf(t, port, c.query); !slices.Equal(got, c.want) {
			t.Errorf("pmseries %s selects %v, want %v", c.query, got, c.want)
		}
	}
}

// checkSeriesREST: pmproxy's /series API gives the same series and values.
func checkSeriesREST(t *testing.T, base, series string) {
	t.Helper()
	body, err := httpGet(base + "/series/query?expr=hostcache.kernel.cpu.util.user")
	if err != nil || !strings.Contains(body, series) {
		t.Errorf("/series/query: %v %s", err, body)
	}
	body, err = httpGet(base + "/series/values?samples=3&series=" + series)
	var vals []struct {
		Series    string
		Timestamp float64
		Value     string
	}
	if err != nil || json.Unmarshal([]byte(body), &vals) != nil || len(vals) == 0 || vals[0].Series != series {
		t.Errorf("/series/values: %v %s", err, body)
	}
	t.Logf("/series/values: %s", body)
}

// checkOpenMetrics: /metrics names our metrics with our labels.
func checkOpenMetrics(t *testing.T, base string) {
	t.Helper()
	body, err := httpGet(base + "/metrics?names=hostcache.kernel.all.load,hostcache.disk.dev.read")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# TYPE hostcache_kernel_all_load gauge", `collector="load"`, `instname="1 minute"`,
		"# TYPE hostcache_disk_dev_read counter", `collector="disk"`, `device_name="`, `indom_name="per disk"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
}
