package standin

import "github.com/pmdahostcache/pmdahostcache/standin/linuxtable"

// LinuxVersion is the PCP version whose pmcd served pmdalinux's table.
const LinuxVersion = linuxtable.Version

// LinuxTable returns every metric pmdalinux serves, sorted by name, from
// the generated table in standin/linuxtable (the collectors' twin tests
// read the same one).
func LinuxTable() []Metric {
	table := linuxtable.Table()
	out := make([]Metric, len(table))
	for i, m := range table {
		out[i] = Metric(m)
	}
	return out
}
