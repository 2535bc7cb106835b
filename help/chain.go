package help

import "github.com/pmdahostcache/pmdahostcache/cache"

// TextSource answers help by metric name and by instance domain: the help
// files' (Texts), a collector's own (MMV), or several of them in turn
// (Chain). pmda.TextSource has the same methods, so every TextSource serves
// TEXT requests.
type TextSource interface {
	MetricText(name string, long bool) (string, bool)
	InDomText(id cache.InDomID, long bool) (string, bool)
}

// chain answers from the help files, then from the collectors that hold
// help of their own: of the metrics they name while the agent runs (the
// MMV files'), which the help files cannot hold.
type chain struct {
	TextSource
	more []TextSource
}

// Chain is base, then each of more in turn; base itself when more is
// empty.
func Chain(base TextSource, more []TextSource) TextSource {
	if len(more) == 0 {
		return base
	}
	return chain{base, more}
}

func (t chain) MetricText(name string, long bool) (string, bool) {
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

func (t chain) InDomText(id cache.InDomID, long bool) (string, bool) {
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

// CollectorTexts are the help of those of collectors that have their
// own: a collector that answers help itself (a TextSource), or one that
// gives its files' texts (MMVFiles), which MMV assembles.
func CollectorTexts[C any](collectors []C) []TextSource {
	var out []TextSource
	for _, c := range collectors {
		switch x := any(c).(type) {
		case TextSource:
			out = append(out, x)
		case MMVFiles:
			out = append(out, MMV{Files: x})
		}
	}
	return out
}
