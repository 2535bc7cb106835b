package main

import (
	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/pmda"
)

// chainedTexts answers from the help file, then from the collectors that
// hold help of their own: of the metrics they name while the agent runs
// (the MMV files'), which the help file cannot hold.
type chainedTexts struct {
	pmda.TextSource
	more []pmda.TextSource
}

// withCollectorTexts adds the help of the collectors that have their own.
func withCollectorTexts(base pmda.TextSource, cs []engine.Collector) pmda.TextSource {
	t := chainedTexts{TextSource: base}
	for _, c := range cs {
		if ct, ok := c.(pmda.TextSource); ok {
			t.more = append(t.more, ct)
		}
	}
	if len(t.more) == 0 {
		return base
	}
	return t
}

func (t chainedTexts) MetricText(name string, long bool) (string, bool) {
	if text, ok := t.TextSource.MetricText(name, long); ok {
		return text, true
	}
	for _, c := range t.more {
		if text, ok := c.MetricText(name, long); ok {
			return text, true
		}
	}
	return "", false
}

func (t chainedTexts) InDomText(id cache.InDomID, long bool) (string, bool) {
	if text, ok := t.TextSource.InDomText(id, long); ok {
		return text, true
	}
	for _, c := range t.more {
		if text, ok := c.InDomText(id, long); ok {
			return text, true
		}
	}
	return "", false
}
