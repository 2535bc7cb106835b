package main

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// rateHelp documents the metrics the engine computes over each client's
// interval: every hostcache.rate.X from its counter X's help, and every
// peak twin hostcache.max.Y and hostcache.min.Y from Y's. Names below a
// dynamic root are left out: their collector gives their help, and
// Install's newhelp takes each of them for the root (DOMAIN.*.*) and
// complains of duplicates.
func rateHelp(s *cache.Schema, base helpSource) string {
	texts := base.texts
	var b strings.Builder
	b.WriteString("# Help for hostcache.rate.*, hostcache.max.* and hostcache.min.*, generated\n" +
		"# from the base metrics' help by `make generate`.\n")
	for _, d := range namedDescs(s) {
		if dynamicName(d.Name) {
			continue
		}
		if counter, ok := strings.CutPrefix(d.Name, "hostcache.rate."); ok {
			rateEntry(s, texts, d.Name, "hostcache."+counter).write(&b)
		}
	}
	for _, word := range []string{"max", "min"} {
		for _, d := range namedDescs(s) {
			if dynamicName(d.Name) {
				continue
			}
			if base, ok := strings.CutPrefix(d.Name, "hostcache."+word+"."); ok {
				peakEntry(s, texts, d.Name, "hostcache."+base, word == "max").write(&b)
			}
		}
	}
	return b.String()
}

// dynamicName reports whether name lies below a dynamic root.
func dynamicName(name string) bool {
	for _, r := range collector.DynamicRoots() {
		if strings.HasPrefix(name, r+".") {
			return true
		}
	}
	return false
}

// The paragraph every computed figure shares: which interval it covers.
// Steps with a reset matter only to figures made of counters.
const (
	intervalText = "The interval is this client's own: from its previous fetch of this " +
		"metric to the newest sample. A first fetch covers the newest sampling step."
	resetText = " Steps with a counter reset are left out."
	// stepText says what a step is: extra samples for a reader's phase
	// end none.
	stepText = " Steps are the collector's interval, from one regular sample to the next: " +
		"extra samples taken before a reader's fetch end no step."
)

func rateEntry(s *cache.Schema, texts *help.Texts, name, counter string) helpEntry {
	what := "Per-second rate of " + counter
	if cd, ok := s.Lookup(counter); ok && cd.Units.DimTime() == 1 {
		what = "Rate of " + counter + " in seconds per second"
	}
	return helpEntry{
		key:        name,
		oneLine:    "per-second rate of the counter over the client's own interval",
		paragraphs: []string{withMeaning(what, "The counter", texts, counter), intervalText + resetText},
	}
}

func peakEntry(s *cache.Schema, texts *help.Texts, name, base string, isMax bool) helpEntry {
	word, peak := "lowest", "dip"
	if isMax {
		word, peak = "highest", "burst"
	}
	// A figure computed over an interval (a rate, a derived figure) peaks
	// over steps; a sampled instant over its samples.
	bd, ok := s.Lookup(base)
	if ok && bd.Compute == nil {
		return helpEntry{
			key:     name,
			oneLine: word + " sample inside the client's interval",
			paragraphs: []string{
				withMeaning(upper(word)+" sample of "+base+" inside this client's interval",
					"The metric", texts, base), intervalText,
			},
		}
	}
	what := upper(word) + " one-step value of " + base + " inside this client's interval: " +
		"the " + peak + " a long logging interval averages away"
	explained, label := base, "The metric"
	if counter, isRate := strings.CutPrefix(base, "hostcache.rate."); isRate {
		explained, label = "hostcache."+counter, "The counter"
	}
	return helpEntry{
		key:        name,
		oneLine:    word + " one-step value inside the client's interval",
		paragraphs: []string{withMeaning(what, label, texts, explained), intervalText + stepText + resetText},
	}
}

// withMeaning ends the sentence what and adds the one-line help of the
// quantity it is made from, under label ("The counter", "The metric").
func withMeaning(what, label string, texts *help.Texts, metric string) string {
	one, _ := texts.MetricText(metric, false)
	one = strings.TrimSuffix(strings.TrimSpace(one), ".")
	if one == "" {
		return what + "."
	}
	return what + ". " + label + ": " + one + "."
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
