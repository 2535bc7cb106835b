package engine

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// The peak twins of a metric X live in X's cluster plus these offsets, at
// X's item (for max.rate.X and min.rate.X, the item of rate.X): PMIDs follow
// from the base metric's, so they never move once shipped.
const (
	MaxClusterOffset = 1024 // hostcache.max.*
	MinClusterOffset = 2048 // hostcache.min.*
)

// Derived declares a figure a collector computes from its own counters at
// read time, over the asking client's interval, as PCP's derived metrics
// (cpu-util.conf, iostat.conf) compute it from the raw counters over the
// client's sampling interval.
type Derived struct {
	Desc cache.Desc
	// Like is the tracked metric (a counter) whose instances at the
	// window's end the figure is given for.
	Like cache.MetricID
	// Value computes the figure of one instance over w; false: no value.
	Value func(w *Window, inst uint32) (float64, bool)
	// Peaks adds hostcache.max.X and hostcache.min.X: the highest and
	// lowest of the figure over each sampling step inside the interval.
	Peaks bool
}

// Deriver is a collector that has Derived figures.
type Deriver interface {
	Derived() []Derived
}

// windowKind says what a windowed metric gives over a client's interval.
type windowKind int

const (
	kindFigure    windowKind = iota // a rate or derived figure over the whole interval
	kindMaxStep                     // the highest of a figure over each step
	kindMinStep                     // the lowest of a figure over each step
	kindMaxSample                   // the highest sample of an instant metric
	kindMinSample                   // the lowest sample of an instant metric
)

// windowed is one metric computed at read time over the asking client's
// own interval.
type windowed struct {
	desc  cache.Desc
	kind  windowKind
	like  cache.MetricID // whose instances it has
	value func(w *Window, inst uint32) (float64, bool)
	base  cache.Desc // for sample peaks: the instant metric
}

// RateDesc returns the descriptor of hostcache.rate.X for counter X: a
// double, instant, in X's units per second.
func RateDesc(counter cache.Desc) cache.Desc {
	units, _ := cache.RateOf(counter.Units)
	d := cache.Desc{
		Name:   Prefix + "rate." + strings.TrimPrefix(counter.Name, Prefix),
		ID:     RateID(counter.ID),
		Type:   cache.TypeDouble,
		Sem:    cache.SemInstant,
		Units:  units,
		InDom:  counter.InDom,
		Labels: counter.Labels, // the same device, measured the same way
		Access: counter.Access,
	}
	if counter.Threads { // the threads view of a counter gives its rate's
		d.Threads, d.ThreadsOf = true, RateID(counter.ThreadsOf)
	}
	return d
}

// PeakDesc returns the descriptor of hostcache.max.X (max true) or
// hostcache.min.X for metric X (a rate, a derived figure or an instant).
func PeakDesc(x cache.Desc, max bool) cache.Desc {
	word, offset := "min.", uint32(MinClusterOffset)
	if max {
		word, offset = "max.", MaxClusterOffset
	}
	d := x
	d.Name = Prefix + word + strings.TrimPrefix(x.Name, Prefix)
	d.ID = cache.NewMetricID(x.ID.Cluster()+offset, x.ID.Item())
	d.Sem = cache.SemInstant
	d.Compute, d.Peaks = nil, false
	if x.Threads {
		d.ThreadsOf = cache.NewMetricID(x.ThreadsOf.Cluster()+offset, x.ThreadsOf.Item())
	}
	return d
}

// rateOf is the figure hostcache.rate.X: X's growth over the window per
// second, in X's rate units.
func rateOf(counter cache.Desc) func(w *Window, inst uint32) (float64, bool) {
	_, factor := cache.RateOf(counter.Units)
	id := counter.ID
	return func(w *Window, inst uint32) (float64, bool) {
		return w.Rate(id, inst, factor)
	}
}

// windowedOf lists the metrics the engine computes over client intervals
// for one source: for every counter its rate and the rate's peaks (unless
// a derived figure replaces the rate), every derived figure (with peaks if
// asked for), and the peaks of every instant metric that asks for them.
func windowedOf(src cache.Source, derived []Derived) []windowed {
	replaced := map[cache.MetricID]bool{}
	for _, d := range derived {
		replaced[d.Desc.ID] = true
	}
	var out []windowed
	figure := func(desc cache.Desc, like cache.MetricID, value func(*Window, uint32) (float64, bool), peaks bool) {
		out = append(out, windowed{desc: desc, kind: kindFigure, like: like, value: value})
		if peaks {
			out = append(out,
				windowed{desc: PeakDesc(desc, true), kind: kindMaxStep, like: like, value: value},
				windowed{desc: PeakDesc(desc, false), kind: kindMinStep, like: like, value: value})
		}
	}
	for _, d := range src.Metrics {
		switch {
		case d.Sem == cache.SemCounter && !replaced[RateID(d.ID)]:
			figure(RateDesc(d), d.ID, rateOf(d), true)
		case d.Peaks:
			out = append(out,
				windowed{desc: PeakDesc(d, true), kind: kindMaxSample, like: d.ID, base: d},
				windowed{desc: PeakDesc(d, false), kind: kindMinSample, like: d.ID, base: d})
		}
	}
	for _, d := range derived {
		figure(d.Desc, d.Like, d.Value, d.Peaks)
	}
	return out
}

// trackedOf lists the schema indexes of a source's metrics its history
// keeps: every number the source publishes. The figures need the counters
// and the instants with peaks; the flight recorder writes out all of them.
// Strings (names, versions) are left out: they would cost the history a
// string per sample and hardly ever change. A source whose history keeps
// its counters alone (cache.Source.CountersOnly) leaves out its other
// instants too, but for those a figure is computed like (likes).
func trackedOf(schema *cache.Schema, source int, likes map[cache.MetricID]bool) []int {
	countersOnly := schema.CountersOnly(source)
	var out []int
	for i, d := range schema.Descs() {
		if schema.SourceOf(i) != source || d.Compute != nil || d.Type == cache.TypeString {
			continue
		}
		if countersOnly && d.Sem != cache.SemCounter && !d.Peaks && !likes[d.ID] {
			continue
		}
		out = append(out, i)
	}
	return out
}
