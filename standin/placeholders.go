package standin

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
)

// Internal ids of the placeholders: clusters from PlaceholderCluster and
// instance domains from PlaceholderInDom, past every id the collectors
// and the engine use. Each agent has its own range, Shift wide.
const (
	PlaceholderCluster = 3000
	PlaceholderInDom   = 1000

	linuxPlaceholderCluster = PlaceholderCluster
	linuxPlaceholderInDom   = PlaceholderInDom
	procPlaceholderCluster  = PlaceholderCluster + Shift
	procPlaceholderInDom    = PlaceholderInDom + Shift
)

// Placeholders describes, for every metric of the agent that the names in
// have (hostcache's) have no twin of, a metric hostcache.X with the agent's
// descriptor and no values, and an instance domain for each of the
// agent's domains they use. Its schema source is named after the agent's
// program (pmdalinux, pmdaproc); no collector samples it, so its metrics
// never have values. pmdalinux answers the descriptor of every name it has,
// with or without values; PCP's clients look up every name of a logging
// configuration or a view before they fetch, and pmlogger leaves out, and
// pmrep refuses, one whose PMID has no descriptor. Built into the schema,
// the placeholders are twins like any other, and answer as pmdalinux's
// PMIDs. A fetch of one answers PM_ERR_APPVERSION, as pmdalinux answers
// for a metric the kernel does not provide (swap.in and swap.out, from a
// line of /proc/stat no kernel since 2.6 prints).
func Placeholders(agent Agent, have map[string]bool) cache.Source {
	src := cache.Source{Name: agent.program()}
	indoms := map[cache.InDomID]bool{}
	for _, m := range agent.Table() {
		if have[prefix+m.Name] {
			continue
		}
		in := cache.InDomNone
		if m.InDom != cache.InDomNone {
			in = agent.placeholderInDom + m.InDom
			if !indoms[in] {
				indoms[in] = true
				src.InDoms = append(src.InDoms,
					cache.InDomDesc{ID: in, Name: agent.program() + " " + agent.inDomText(m.InDom)})
			}
		}
		src.Metrics = append(src.Metrics, cache.Desc{Name: prefix + m.Name,
			ID:   cache.NewMetricID(agent.placeholderCluster+m.Cluster, m.Item),
			Type: m.Type, Sem: m.Sem, Units: m.Units, InDom: in, Unsupported: true})
	}
	return src
}

// IsPlaceholder reports whether a metric id is a placeholder's.
func IsPlaceholder(id cache.MetricID) bool { return id.Cluster() >= PlaceholderCluster }
