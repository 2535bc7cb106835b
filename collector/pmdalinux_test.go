package collector

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// registeredSources builds every registered collector on the fixture tree.
func registeredSources(t *testing.T) []cache.Source {
	t.Helper()
	var cs []engine.Collector
	for _, reg := range Registry() {
		c, err := reg.Factory(engine.Env{Proc: filepath.Join(testdataDir, "proc-t0"), Sys: filepath.Join(testdataDir, "sys-t0")})
		if err != nil {
			t.Fatalf("%s: %v", reg.Name, err)
		}
		if c.Name() != reg.Name {
			t.Errorf("collector registered as %s calls itself %s", reg.Name, c.Name())
		}
		cs = append(cs, c)
	}
	// The engine adds each source's rates, derived figures and peaks.
	out := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{}).Sources()[1:]
	if _, err := cache.NewSchema(out...); err != nil {
		t.Fatalf("the registered sources do not make a schema: %v", err)
	}
	return out
}

// Every metric of every registered collector has a pmdalinux twin (or
// a derived one) with the same descriptor, and none is one of those left
// out on purpose.
func TestDescriptorsMatchPmdalinux(t *testing.T) {
	twins := linuxTwins()
	for _, src := range registeredSources(t) {
		for _, d := range src.Metrics {
			name, ok := strings.CutPrefix(d.Name, engine.Prefix)
			if !ok {
				t.Errorf("%s: not below %s", d.Name, engine.Prefix)
				continue
			}
			if strings.HasPrefix(name, "rate.") || strings.HasPrefix(name, "max.") || strings.HasPrefix(name, "min.") {
				continue // the engine's: TestEveryCounterHasARate and engine's tests
			}
			if strings.HasPrefix(name, "mmv.") {
				continue // the MMV files' and the catalog's own, no twin of pmdalinux's: collector/mmvfiles
			}
			if strings.HasPrefix(name, "proc.") || strings.HasPrefix(name, "hotproc.") {
				continue // pmdaproc's twins: collector/proc checks them against pmdaproc's table
			}
			m, ok := twins[name]
			switch {
			case !ok:
				t.Errorf("%s: not in pmdalinux's table", name)
				continue
			case contains(notExported, name):
				t.Errorf("%s: exported, but listed as having no source", name)
				continue
			}
			checkTwin(t, d, m)
		}
	}
}

// Every counter has its hostcache.rate twin next to it, and every rate
// metric is the twin of a counter of the same source.
func TestEveryCounterHasARate(t *testing.T) {
	twins := linuxTwins()
	for _, src := range registeredSources(t) {
		byID := map[cache.MetricID]cache.Desc{}
		for _, d := range src.Metrics {
			byID[d.ID] = d
		}
		for _, d := range src.Metrics {
			name := strings.TrimPrefix(d.Name, engine.Prefix)
			if strings.HasPrefix(name, "rate.") {
				counter, ok := byID[cache.NewMetricID(d.ID.Cluster(), d.ID.Item()-engine.RateItemOffset)]
				if d.ID.Item() < engine.RateItemOffset || !ok || counter.Sem != cache.SemCounter ||
					engine.Prefix+"rate."+strings.TrimPrefix(counter.Name, engine.Prefix) != d.Name {
					t.Errorf("%s (%s): not the rate of a counter", d.Name, d.ID)
				}
				continue
			}
			if d.Sem != cache.SemCounter || strings.HasPrefix(name, "mmv.") || strings.HasPrefix(name, "proc.") ||
				strings.HasPrefix(name, "hotproc.") {
				continue // MMV counters' and pmdaproc twins' rates: collector/mmvfiles' and collector/proc's tests
			}
			r, ok := byID[engine.RateID(d.ID)]
			if !ok {
				t.Errorf("%s: counter without a rate twin", name)
				continue
			}
			u, known := rateUnitsOf(twins[name].Units)
			if r.Name != engine.Prefix+"rate."+name || r.Type != cache.TypeDouble || r.Sem != cache.SemInstant ||
				r.InDom != d.InDom || !known || r.Units != u {
				t.Errorf("%s: rate twin %+v, want double, instant, units %#x, same indom", name, r, uint32(u))
			}
		}
	}
}
