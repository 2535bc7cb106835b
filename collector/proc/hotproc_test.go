package proc

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// hotHarness builds the process collector with conf as pmdaproc's
// hotproc.conf, and writes a /proc/stat of idle ticks with two CPUs.
func hotHarness(t *testing.T, conf string) (*collectortest.Harness, func(idle int)) {
	t.Helper()
	dir := t.TempDir()
	if conf != "" {
		if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "proc", "hotproc.conf"), []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := collectortest.NewHarness(t, func(env engine.Env) (engine.Collector, error) {
		env.PMDAsDir = dir
		return NewProcessCollector(env)
	}, "processes/t0")
	writeStat := func(idle int) {
		text := []byte("cpu  1 0 1 " + strconv.Itoa(idle) + " 0 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\n")
		if err := os.WriteFile(filepath.Join(h.Proc, "stat"), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return h, writeStat
}

// hotproc.conf chooses the hot processes at each refresh (2 s here): at
// the first, every rate is 0 (pmdaproc's too), so only the name picks
// sleep; at the second, 2 s later, init burnt 0.1 s of CPU (0.05 CPUs),
// and PID 100 is a new process (another start time), whose CPU time
// counts from its start, not as a burn. The hot twins give the process
// metrics' values for the hot processes only, and the totals account
// for both CPUs.
func TestHotprocChoosesByThePredicate(t *testing.T) {
	h, writeStat := hotHarness(t, "# pick\ncpuburn > 0.04 || fname == \"sleep\"\n")
	refresh := cache.PMStoreRequest{ID: h.Desc("hotproc.control.refresh").ID, Inst: cache.InstNone,
		Value: cache.U32Value(0, 2), Who: cache.Credentials{Known: true}}
	if err := h.C.(engine.Storer).Store(refresh); err != nil {
		t.Fatal(err)
	}
	writeStat(1000)
	h.MustSample(collectortest.T0)
	if v := h.MustValue("hotproc.control.config", cache.InstNone); v.Str != `((cpuburn > 0.040000) || (fname == "sleep"))` {
		t.Errorf("config %q", v.Str)
	}
	h.WantU64("hotproc.control.config_gen", cache.InstNone, 1)
	h.WantU64("hotproc.nprocs", cache.InstNone, 1)
	wantHot(t, h, 300)
	h.WantU64("hotproc.psinfo.utime", 300, h.U64("proc.psinfo.utime", 300))
	h.WantAbsent("hotproc.psinfo.utime", 1)
	h.WantU64("hotproc.total.cpuburn", cache.InstNone, 0)

	h.Use("processes/t1")
	writeStat(1300)
	h.MustSample(collectortest.T1)
	wantHot(t, h, 1)
	h.WantU64("hotproc.psinfo.utime", 1, 5100)
	h.WantU64("hotproc.io.read_bytes", 1, h.U64("proc.io.read_bytes", 1))
	near(t, h, "hotproc.predicate.cpuburn", 1, 0.05)
	near(t, h, "hotproc.total.cpuidle", cache.InstNone, 1.5)             // 3 s idle in 2 s
	near(t, h, "hotproc.total.cpuburn", cache.InstNone, 0.05)            // init's 0.1 s
	near(t, h, "hotproc.total.cpuother.not_cpuburn", cache.InstNone, 0)  // PID 100 is new
	near(t, h, "hotproc.total.cpuother.transient", cache.InstNone, 0.45) // 4 - 3 - 0.1 s
	near(t, h, "hotproc.total.cpuother.percent", cache.InstNone, 90)
}

func wantHot(t *testing.T, h *collectortest.Harness, pids ...uint32) {
	t.Helper()
	got := h.Instances(indomHot)
	if len(got) != len(pids) {
		t.Fatalf("hot processes %v, want %v", got, pids)
	}
	for i, x := range got {
		if x.ID != pids[i] {
			t.Errorf("hot process %d is %d, want %d", i, x.ID, pids[i])
		}
	}
}

func near(t *testing.T, h *collectortest.Harness, name string, inst uint32, want float64) {
	t.Helper()
	if got := h.Float(name, inst); math.Abs(got-want) > 1e-4 {
		t.Errorf("%s[%d] = %v, want %v", name, inst, got, want)
	}
}

// Only root stores the controls; a bad value is refused and changes
// nothing; an empty predicate turns hotproc off.
func TestHotprocStores(t *testing.T) {
	h, _ := hotHarness(t, "")
	st := h.C.(engine.Storer)
	root := cache.Credentials{UID: 0, Known: true}
	id := func(name string) cache.MetricID { return h.Desc(name).ID }
	store := func(name string, v cache.Value, who cache.Credentials) error {
		q := cache.PMStoreRequest{ID: id(name), Inst: cache.InstNone, Value: v, Who: who}
		if err := st.CheckStore(q); err != nil {
			return err
		}
		return st.Store(q)
	}
	for _, c := range []struct {
		name string
		v    cache.Value
		who  cache.Credentials
		want error
	}{
		{"hotproc.control.config", cache.StringValue(0, "uid == 0"), cache.Credentials{UID: 1000, Known: true}, cache.ErrNotAllowed},
		{"hotproc.control.config", cache.StringValue(0, "uid == 0"), cache.Credentials{}, cache.ErrNotAllowed},
		{"hotproc.control.config", cache.StringValue(0, "uid = 0"), root, cache.ErrOutOfRange},
		{"hotproc.control.refresh", cache.U32Value(0, 0), root, cache.ErrOutOfRange},
		{"hotproc.control.refresh", cache.U32Value(0, 3601), root, cache.ErrOutOfRange},
		{"hotproc.control.config_gen", cache.U32Value(0, 5), root, cache.ErrReadOnly},
	} {
		if err := store(c.name, c.v, c.who); !errors.Is(err, c.want) {
			t.Errorf("store %s %+v as %+v: %v, want %v", c.name, c.v, c.who, err, c.want)
		}
	}
	h.MustSample(collectortest.T0)
	h.WantU64("hotproc.control.config_gen", cache.InstNone, 0)
	h.WantU64("hotproc.control.refresh", cache.InstNone, 10)
	h.WantU64("hotproc.nprocs", cache.InstNone, 0)

	if err := store("hotproc.control.config", cache.StringValue(0, "uid == 1000"), root); err != nil {
		t.Fatal(err)
	}
	if err := store("hotproc.control.refresh", cache.U32Value(0, 30), root); err != nil {
		t.Fatal(err)
	}
	h.MustSample(collectortest.T1)
	h.WantU64("hotproc.control.config_gen", cache.InstNone, 1)
	h.WantU64("hotproc.control.refresh", cache.InstNone, 30)
	wantHot(t, h, 100, 300)
	if err := store("hotproc.control.config", cache.StringValue(0, ""), root); err != nil {
		t.Fatal(err)
	}
	h.MustSample(collectortest.T1.Add(10e9))
	h.WantU64("hotproc.control.config_gen", cache.InstNone, 0)
	wantHot(t, h)
}
