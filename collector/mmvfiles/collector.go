package mmvfiles

import (
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

// MetricHelp is the help a file gives metric name, as the file gives it:
// help.MMV makes the served text of it, the control metrics' and the
// computed figures' (help.CollectorTexts finds the collector by it).
func (c *mmvCollector) MetricHelp(name string) (oneLine, long string, ok bool) {
	mt, ok := c.files.cat.load().metricHelp[name]
	if !ok {
		return "", "", false
	}
	return mt.ShortHelp, mt.LongHelp, true
}

// InDomHelp is the help a file gives its instance domain id.
func (c *mmvCollector) InDomHelp(id cache.InDomID) (oneLine, long string, ok bool) {
	d, ok := c.files.cat.load().indomHelp[id]
	if !ok {
		return "", "", false
	}
	return d.ShortHelp, d.LongHelp, true
}
