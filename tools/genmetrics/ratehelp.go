package main

import (
	"fmt"
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// rateHelp documents the metrics the engine computes over each client's
// interval: every hostcache.rate.X from its counter X's help, and every
// peak twin hostcache.max.Y and hostcache.min.Y from Y's.
func rateHelp(s *cache.Schema, base helpSource) string {
	texts := base.texts
	var b strings.Builder
	b.WriteString("# Help for hostcache.rate.*, hostcache.max.* and hostcache.min.*, generated\n" +
		"# from the base metrics' help by `make generate`.\n")
	for _, d := range s.Descs() {
		if base, ok := strings.CutPrefix(d.Name, "hostcache.rate."); ok {
			writeRateHelp(&b, s, texts, d.Name, "hostcache."+base)
		}
	}
	for _, word := range []string{"max", "min"} {
		for _, d := range s.Descs() {
			if base, ok := strings.CutPrefix(d.Name, "hostcache."+word+"."); ok {
				writePeakHelp(&b, s, texts, d.Name, "hostcache."+base, word == "max")
			}
		}
	}
	return wrapText(b.String(), 76)
}

// wrapText breaks the text lines of help source longer than width at
// spaces: newhelp, which Install runs, splits a line past 119 characters
// and long metric names make some sentences that long. Key lines ("@ ...")
// and comments stay whole.
func wrapText(src string, width int) string {
	var out strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if len(line) <= width+1 || strings.HasPrefix(line, "@") || strings.HasPrefix(line, "#") {
			out.WriteString(line)
			continue
		}
		col := 0
		for i, w := range strings.Fields(line) {
			if i > 0 && col+1+len(w) > width {
				out.WriteString("\n")
				col = 0
			} else if i > 0 {
				out.WriteString(" ")
				col++
			}
			out.WriteString(w)
			col += len(w)
		}
		out.WriteString("\n")
	}
	return out.String()
}

// intervalText says which interval every computed figure covers.
const intervalText = "The interval is the asking client's own: from the sample its previous\n" +
	"fetch of this metric ended at to the newest sample, with exact sample\n" +
	"times (a first fetch, or one with no new sample since, gets the newest\n" +
	"sampling interval; none is shorter than half the collector's interval).\n"

func writeRateHelp(b *strings.Builder, s *cache.Schema, texts *help.Texts, name, counter string) {
	one, _ := texts.MetricText(counter, false)
	cd, _ := s.Lookup(counter)
	unit := "per second"
	if cd != nil && cd.Units.DimTime() == 1 {
		unit = "in seconds per second"
	}
	fmt.Fprintf(b, "\n@ %s per-second rate of the counter over the client's own interval\n", name)
	fmt.Fprintf(b, "Per-second rate of %s, %s, over the asking client's\n", counter, unit)
	b.WriteString("interval. " + intervalText)
	b.WriteString("A step in which the counter went backwards (a reset or wrap) or jumped\n" +
		"by more than half its type's range (a reset to a high value) is left out:\n" +
		"the rate is that of the good steps, never negative, never a spike.\n")
	if one != "" {
		fmt.Fprintf(b, "The counter: %s.\n", strings.TrimSuffix(one, "."))
	}
}

func writePeakHelp(b *strings.Builder, s *cache.Schema, texts *help.Texts, name, base string, isMax bool) {
	word := "lowest"
	if isMax {
		word = "highest"
	}
	// A figure computed over an interval (a rate, a derived figure) peaks
	// over steps; a sampled instant over its samples.
	bd, ok := s.Lookup(base)
	stepwise := !ok || bd.Compute != nil
	if stepwise {
		fmt.Fprintf(b, "\n@ %s %s one-step value inside the client's interval\n", name, word)
	} else {
		fmt.Fprintf(b, "\n@ %s %s sample inside the client's interval\n", name, word)
	}
	if stepwise {
		fmt.Fprintf(b, "The %s value of %s over any one sampling interval inside the\n", word, base)
		b.WriteString("asking client's interval: the peak a long logging interval averages away.\n")
	} else {
		fmt.Fprintf(b, "The %s sample of %s taken inside the asking client's interval\n", word, base)
		b.WriteString("(the sample its previous fetch ended at excluded).\n")
	}
	b.WriteString(intervalText)
	if one, ok := texts.MetricText(base, false); ok && one != "" {
		fmt.Fprintf(b, "The metric: %s.\n", strings.TrimSuffix(one, "."))
	}
}
