package collector

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/kernel"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Fixtures: testdata/proc-t0/uptime is "600.00 1000.00", proc-t1/uptime
// "602.00 1000.80" (2 s later; idle time sums over both CPUs, 80 idle ticks
// in proc-t1/stat).
func TestUptimeValues(t *testing.T) {
	h := newHarness(t, NewUptimeCollector, "proc-t0")
	h.MustSample(t0)
	h.WantFloat("kernel.all.uptime", cache.InstNone, 600)
	h.WantFloat("kernel.all.idletime", cache.InstNone, 1000)

	h.Use("proc-t1")
	h.MustSample(t1)
	h.WantFloat("kernel.all.uptime", cache.InstNone, 602)
	h.WantFloat("kernel.all.idletime", cache.InstNone, 1000.8)
}

func TestParseUptime(t *testing.T) {
	up, idle, err := kernel.ParseUptime([]byte("449.29 784.28\n"))
	if err != nil || up != 449.29 || idle != 784.28 {
		t.Errorf("parseUptime = %v, %v, %v; want 449.29, 784.28", up, idle, err)
	}
	for _, in := range []string{"", "\n", "449.29", "449.29 x", "x 784.28", "-1 784.28", "449.29 Inf", "NaN 1"} {
		if up, idle, err := kernel.ParseUptime([]byte(in)); err == nil {
			t.Errorf("parseUptime(%q) = %v, %v; want an error", in, up, idle)
		}
	}
}

func TestUptimeEmptyRoot(t *testing.T) {
	h := newHarness(t, NewUptimeCollector, "proc-empty")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling an empty /proc succeeded")
	}
	h.NothingPublished()
}

// testdata/proc-malformed/uptime has one field.
func TestUptimeMalformed(t *testing.T) {
	h := newHarness(t, NewUptimeCollector, "proc-malformed")
	if err := h.Sample(t0); err == nil {
		t.Fatal("sampling a malformed uptime succeeded")
	}
	h.NothingPublished()
}

// A root that is missing, empty or a file fails at construction, for the
// collectors that read their file themselves.
func TestProcFileBadRoot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", "/nonexistent/proc", file} {
		for _, f := range []engine.Factory{NewUptimeCollector, NewLoadCollector} {
			if c, err := f(engine.Env{Proc: root}); err == nil {
				t.Errorf("root %q accepted by %s", root, c.Name())
			}
		}
	}
}
