package help

import (
	"strings"

	"github.com/pmdahostcache/pmdahostcache/cache"
)

// MMVFiles is what the MMV collector knows of its files' help: the
// one-line and long texts a file gives a metric or an instance domain,
// as the file gives them.
type MMVFiles interface {
	MetricHelp(name string) (oneLine, long string, ok bool)
	InDomHelp(id cache.InDomID) (oneLine, long string, ok bool)
}

// MMV is the help of the metrics below hostcache.mmv: the control
// metrics' (mmvControlHelp), each file's own, and that of the rates and
// peaks the engine computes from them. It is served beside the help
// files, not from them: Install's newhelp takes every name below a
// dynamic root for the root itself (396.*.*) and complains of duplicates.
type MMV struct{ Files MMVFiles }

// mmvComputed are the figures the engine computes from a metric, by the
// root of their names, and the words their help starts with.
var mmvComputed = []struct{ prefix, what string }{
	{namePrefix + "rate.", "rate per second of "},
	{namePrefix + "max.", "highest in each client's interval of "},
	{namePrefix + "min.", "lowest in each client's interval of "},
}

// MetricText is the help of an MMV metric, from its file (or the control
// metrics' own), or of its rate or peak.
func (m MMV) MetricText(name string, long bool) (string, bool) {
	if text, ok := mmvControlText(name, long); ok {
		return text, true
	}
	if text, ok := m.fileText(name, long); ok {
		return text, true
	}
	for _, w := range mmvComputed {
		if base, ok := strings.CutPrefix(name, w.prefix); ok {
			if text, ok := m.fileText(namePrefix+base, false); ok {
				return w.what + namePrefix + base + ": " + text, true
			}
			if text, ok := m.MetricText(namePrefix+base, false); ok {
				return w.what + text, true
			}
		}
	}
	return "", false
}

// InDomText is the help of an MMV file's instance domain.
func (m MMV) InDomText(id cache.InDomID, long bool) (string, bool) {
	one, full, ok := m.Files.InDomHelp(id)
	if !ok {
		return "", false
	}
	return fileText(one, full, long)
}

// fileText is the help the file gives metric name.
func (m MMV) fileText(name string, long bool) (string, bool) {
	one, full, ok := m.Files.MetricHelp(name)
	if !ok {
		return "", false
	}
	return fileText(one, full, long)
}

// fileText picks one of a file's texts; an empty one is none, as pmdammv
// answers a help offset of 0.
func fileText(oneLine, long string, wantLong bool) (string, bool) {
	if wantLong {
		return long, long != ""
	}
	return oneLine, oneLine != ""
}

// mmvControlHelp is the control metrics' help: its one line, then the
// rest.
var mmvControlHelp = map[string][2]string{
	"hostcache.mmv.control.files": {"MMV files whose metrics the agent serves",
		"How many MMV files of the MMV directory (mmv_dir) have their metrics\n" +
			"served below hostcache.mmv, as pmdammv's mmv.control.files counts its.\n" +
			"The hostcache.mmv.control names are there with no file at all, so\n" +
			"every dynamic root of the MMV metrics has names below it."},
	"hostcache.mmv.control.metrics": {"metrics of the MMV files the agent serves",
		"How many metrics the MMV files give below hostcache.mmv, the control\n" +
			"metrics left out."},
	"hostcache.mmv.control.changes": {"changes of the MMV metrics",
		"How many times the MMV files' metrics changed since the agent started:\n" +
			"a file came, went, or was parsed again with other metrics. Each change\n" +
			"tells every pmcd client that the names changed. Changes are paced: 2 s\n" +
			"apart, up to 64 s while they come fast."},
}

// mmvControlText is the help of a control metric.
func mmvControlText(name string, long bool) (string, bool) {
	h, ok := mmvControlHelp[name]
	if !ok {
		return "", false
	}
	if long {
		return h[1], true
	}
	return h[0], true
}
