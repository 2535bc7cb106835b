package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/config"
)

// collectorTable writes the collectors in registry order with their
// default sampling intervals and how many metrics each publishes, so the
// docs cannot drift from collector/registry.go.
func collectorTable(s *cache.Schema) string {
	perSource := map[string]int{}
	for i := range s.Descs() {
		perSource[s.Sources()[s.SourceOf(i)]]++
	}
	global := config.Default().Interval
	var b strings.Builder
	fmt.Fprintf(&b, "## Collectors\n\n"+
		"Each collector samples at its default interval unless the configuration file\n"+
		"(`collector.NAME.interval`) or `pmstore hostcache.control.collector.interval` says\n"+
		"otherwise. Those marked `interval` follow the agent's default interval (%s unless\n"+
		"`interval` or `pmstore hostcache.control.interval` changes it); the others have\n"+
		"their own (`collector/registry.go`). The metrics include the rates and peaks the\n"+
		"engine computes. A collector no client reads samples `idle_factor` times less\n"+
		"often (README.md, Tuning the sampling interval). The `mmv` collector's metrics are\n"+
		"the MMV files programs write in `$PCP_TMP_DIR/mmv`, named while the agent runs\n"+
		"(`hostcache.mmv.FILE.METRIC`, with `hostcache.rate.mmv.*`, `max.rate.mmv.*`,\n"+
		"`min.rate.mmv.*`, `max.mmv.*` and `min.mmv.*`): the table counts none of them, and\n"+
		"`pminfo hostcache.mmv` lists those of the files there now (README.md, Applications\n"+
		"too: MMV files).\n\n"+
		"| collector | default interval | metrics |\n|---|---|---|\n", seconds(global))
	for _, reg := range collector.Registry() {
		interval := seconds(global) + " (`interval`)"
		if reg.Interval != 0 {
			interval = seconds(reg.Interval)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d |\n", reg.Name, interval, perSource[reg.Name])
	}
	return b.String()
}

// seconds writes an interval as the docs do: "1 s", "10 s", "60 s".
func seconds(d time.Duration) string {
	return strings.TrimSuffix(fmt.Sprintf("%g", d.Seconds()), ".0") + " s"
}
