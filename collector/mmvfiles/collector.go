package mmvfiles

import (
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
)

// DynamicRoots are the namespace nodes whose names change while the agent
// runs: the MMV files' metrics, their rates, the rates' peaks and the
// instants' peaks. pmns declares each as a dynamic subtree; pmcd asks the
// agent for the names below.
func DynamicRoots() []string {
	return []string{"hostcache.mmv", "hostcache.rate.mmv", "hostcache.max.rate.mmv", "hostcache.min.rate.mmv",
		"hostcache.max.mmv", "hostcache.min.mmv"}
}

// mmvCollector samples the MMV files instrumented programs write
// ($PCP_TMP_DIR/mmv): their metrics are hostcache.mmv.<file>.<metric>,
// with the engine's rates and peaks, and change as files come and go
// (engine.Dynamic).
type mmvCollector struct {
	files   *mmvFiles
	warn    func(error)
	control mmvControl
}

// NewCollector reads the MMV files of env.MMVDir; with none set it has
// no metrics.
func NewCollector(env engine.Env) (engine.Collector, error) {
	warn := env.Warn
	if warn == nil {
		warn = func(error) {}
	}
	return &mmvCollector{files: newMMVFiles(env.MMVDir, mmvLimitsOf(env)), warn: warn}, nil
}

// mmvLimitsOf is the defaults with what env sets.
func mmvLimitsOf(env engine.Env) mmvLimits {
	lim := defaultMMVLimits()
	if env.MMVFiles > 0 {
		lim.files = env.MMVFiles
	}
	if env.MMVMetrics > 0 {
		lim.file.MaxMetrics = env.MMVMetrics
	}
	if env.MMVValues > 0 {
		lim.file.MaxValues = env.MMVValues
	}
	lim.file.MaxBytes = min(lim.file.MaxBytes, mmvFileBytes(lim.file))
	return lim
}

func (c *mmvCollector) Name() string { return "mmv" }

// Source is the files' metrics after the control metrics, which are there
// with no file at all.
func (c *mmvCollector) Source() cache.Source {
	src := c.files.source()
	src.Metrics = append(mmvControlDescs(), src.Metrics...)
	return src
}

// Refresh looks at the directory and its files: a new, changed, removed
// or dead program's file changes the metrics, at once on a quiet host and
// at most once a gap while changes come fast (mmvPace), since each change
// rebuilds the schema and tells every pmcd client the names changed. Each
// problem of a file is told once, until the file changes.
func (c *mmvCollector) Refresh(now time.Time) bool {
	if c.files.dir == "" {
		return false
	}
	changed, problems := c.files.scan(now)
	for _, p := range problems {
		c.warn(p)
	}
	if changed {
		c.control.changes.Add(1)
	}
	return changed
}

func (c *mmvCollector) Sample(b *cache.Builder, now time.Time) error {
	c.files.publish(b, now)
	c.control.publish(b, c.files.cat.load())
	return nil
}

// MetricText is the help of an MMV metric, from its file (or the control
// metrics' own), or of its rate or peak.
func (c *mmvCollector) MetricText(name string, long bool) (string, bool) {
	if text, ok := mmvControlText(name, long); ok {
		return text, true
	}
	if text, ok := c.files.text(name, long); ok {
		return text, true
	}
	for _, w := range []struct{ prefix, what string }{
		{engine.Prefix + "rate.", "rate per second of "},
		{engine.Prefix + "max.", "highest in each client's interval of "},
		{engine.Prefix + "min.", "lowest in each client's interval of "},
	} {
		if base, ok := strings.CutPrefix(name, w.prefix); ok {
			if text, ok := c.files.text(engine.Prefix+base, false); ok {
				return w.what + engine.Prefix + base + ": " + text, true
			}
			if text, ok := c.MetricText(engine.Prefix+base, false); ok {
				return w.what + text, true
			}
		}
	}
	return "", false
}

// InDomText is the help of an MMV file's instance domain.
func (c *mmvCollector) InDomText(id cache.InDomID, long bool) (string, bool) {
	return c.files.indomText(id, long)
}
