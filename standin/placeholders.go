package standin

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Internal ids of the placeholders: clusters from PlaceholderCluster and
// instance domains from PlaceholderInDom, past every id the collectors
// and the engine use.
const (
	PlaceholderCluster = 3000
	PlaceholderInDom   = 1000
)

// PlaceholderSource names the schema source that holds the placeholders;
// no collector samples it, so its metrics never have values.
const PlaceholderSource = "pmdalinux"

// Placeholders describes, for every pmdalinux metric that the names in
// have (hostcache's) have no twin of, a metric hostcache.X with pmdalinux's
// descriptor and no values, and an instance domain for each pmdalinux
// domain they use. pmdalinux answers the descriptor of every name it has,
// with or without values; PCP's clients look up every name of a logging
// configuration or a view before they fetch, and pmlogger leaves out, and
// pmrep refuses, one whose PMID has no descriptor. Built into the schema,
// the placeholders are twins like any other, and answer as pmdalinux's
// PMIDs. A fetch of one answers PM_ERR_APPVERSION, as pmdalinux answers
// for a metric the kernel does not provide (swap.in and swap.out, from a
// line of /proc/stat no kernel since 2.6 prints).
func Placeholders(table []LinuxMetric, have map[string]bool) cache.Source {
	src := cache.Source{Name: PlaceholderSource}
	indoms := map[cache.InDomID]bool{}
	for _, m := range table {
		if have[prefix+m.Name] {
			continue
		}
		in := cache.InDomNone
		if m.InDom != cache.InDomNone {
			in = PlaceholderInDom + m.InDom
			if !indoms[in] {
				indoms[in] = true
				src.InDoms = append(src.InDoms,
					cache.InDomDesc{ID: in, Name: "pmdalinux " + linuxInDomText(m.InDom)})
			}
		}
		src.Metrics = append(src.Metrics, cache.Desc{Name: prefix + m.Name,
			ID:   cache.NewMetricID(PlaceholderCluster+m.Cluster, m.Item),
			Type: m.Type, Sem: m.Sem, Units: m.Units, InDom: in, Unsupported: true})
	}
	return src
}

// IsPlaceholder reports whether a metric id is a placeholder's.
func IsPlaceholder(id cache.MetricID) bool { return id.Cluster() >= PlaceholderCluster }
