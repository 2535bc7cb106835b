package mmvfiles

import (
	"os"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector/collectortest"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// With no MMV file, each of the six dynamic roots still has names below
// it: the control metrics and the engine's rates and peaks of them. pmcd
// 6.0.3 lists a dynamic root with nothing below as if it were a metric,
// which every client walking the namespace then fails to look up.
func TestMMVControlMetricsFillEveryDynamicRoot(t *testing.T) {
	h := &collectortest.Harness{T: t}
	h.Attach(NewCollector, engine.Env{MMVDir: t.TempDir()})
	h.MustSample(t0)
	h.MustSample(t1)
	for _, root := range DynamicRoots() {
		n := 0
		for _, d := range h.Store.Schema().Descs() {
			if strings.HasPrefix(d.Name, root+".") {
				n++
				if _, ok := h.Value(strings.TrimPrefix(d.Name, engine.Prefix), cache.InstNone); !ok {
					t.Errorf("%s: no value with no MMV file", d.Name)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no name below it with no MMV file", root)
		}
	}
	h.WantU64("mmv.control.files", cache.InstNone, 0)
	h.WantU64("mmv.control.metrics", cache.InstNone, 0)
	h.WantU64("mmv.control.changes", cache.InstNone, 0)
	h.WantFloat("rate.mmv.control.changes", cache.InstNone, 0)
	h.WantU64("max.mmv.control.files", cache.InstNone, 0)
	h.WantU64("min.mmv.control.metrics", cache.InstNone, 0)
}

// With a file, the control metrics count it, its metrics and the change
// its arrival made.
func TestMMVControlMetricsCountTheFiles(t *testing.T) {
	r := newMMVRig(t, defaultMMVLimits())
	r.write("app", ownSpec(2))
	c := &mmvCollector{files: r.files, warn: func(error) {}}
	if !c.Refresh(r.now) {
		t.Fatal("the first scan of a file changes nothing")
	}
	h := &collectortest.Harness{T: t}
	h.Attach(func(engine.Env) (engine.Collector, error) { return c, nil }, engine.Env{})
	h.MustSample(t0)
	h.WantU64("mmv.control.files", cache.InstNone, 1)
	h.WantU64("mmv.control.metrics", cache.InstNone, uint64(len(r.files.source().Metrics)))
	h.WantU64("mmv.control.changes", cache.InstNone, 1)
	if len(r.files.source().Metrics) == 0 {
		t.Error("the file has no metrics")
	}
}

// A file named control would name its metrics as the control metrics are
// named: it is refused, with a reason, as a file with no PMNS name is.
func TestMMVFileNamedControlIsRefused(t *testing.T) {
	if why := mmvRefusalOf("control", os.FileMode(0)); !strings.Contains(why, "hostcache.mmv.control") {
		t.Errorf("a file named control: %q", why)
	}
	if why := mmvRefusalOf("controls", os.FileMode(0)); why != "" {
		t.Errorf("a file named controls: %q", why)
	}
}
