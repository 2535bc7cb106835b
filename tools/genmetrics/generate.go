package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/collector"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/help"
)

// genFile is one generated file: its path below the root and its text.
type genFile struct {
	path, text string
}

// generate builds the schema and returns every generated file's text,
// and those the configuration keys write.
func generate(root string) ([]genFile, error) {
	schema, err := buildSchema(root)
	if err != nil {
		return nil, err
	}
	base, err := readHelp(root, false)
	if err != nil {
		return nil, err
	}
	rates := rateHelp(schema, base)
	all, err := help.Parse(base.source + "\n" + rates)
	if err != nil {
		return nil, fmt.Errorf("generated help: %w", err)
	}
	files, err := declarations(root)
	if err != nil {
		return nil, err
	}
	index, err := metricIndex(schema, files, withCollectorHelp(all, root))
	if err != nil {
		return nil, err
	}
	keys, err := configFiles(root)
	if err != nil {
		return nil, err
	}
	return append([]genFile{
		{"pmns", pmnsSource(schema, pmnsHeader, ownPMID, collector.DynamicRoots())},
		{filepath.Join("help", help.RateFile), rates},
		{filepath.Join("docs", "metrics.md"), index},
	}, keys...), nil
}

// metricTexts gives a metric's help.
type metricTexts interface {
	MetricText(name string, long bool) (string, bool)
}

// withCollectorHelp is the help files' text, then the collectors' own (the
// names below a dynamic root, which the help files leave out), chained as
// the agent chains them, with the collectors made as buildSchema makes
// them.
func withCollectorHelp(files help.TextSource, root string) metricTexts {
	env := engine.Env{Proc: filepath.Join(root, "testdata", "proc-t0"),
		Sys: filepath.Join(root, "testdata", "sys-t0"), Filter: engine.Filter{}}
	var cs []engine.Collector
	for _, reg := range collector.Registry() {
		if c, err := reg.Factory(env); err == nil {
			cs = append(cs, c)
		}
	}
	return help.Chain(files, help.CollectorTexts(cs))
}

// buildSchema makes every registered collector and the engine around
// them, as the agent does, and returns the schema of all they publish.
func buildSchema(root string) (*cache.Schema, error) {
	env := engine.Env{Proc: filepath.Join(root, "testdata", "proc-t0"),
		Sys: filepath.Join(root, "testdata", "sys-t0"), Filter: engine.Filter{}}
	var cs []engine.Collector
	intervals := map[string]time.Duration{}
	for _, reg := range collector.Registry() {
		c, err := reg.Factory(env)
		if err != nil {
			return nil, fmt.Errorf("collector %s: %w", reg.Name, err)
		}
		cs = append(cs, c)
		if reg.Interval != 0 {
			intervals[reg.Name] = reg.Interval
		}
	}
	runner := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second, Intervals: intervals})
	return cache.NewSchema(runner.Sources()...)
}

// helpSource is the hand-written help, read from the work tree (not the
// copy embedded in the help package, which may predate an edit).
type helpSource struct {
	source string
	texts  *help.Texts
}

func readHelp(root string, withRates bool) (helpSource, error) {
	matches, err := filepath.Glob(filepath.Join(root, "help", "*.help"))
	if err != nil {
		return helpSource{}, err
	}
	var src string
	for _, m := range matches { // Glob sorts, as the embedded files are
		if filepath.Base(m) == help.RateFile && !withRates {
			continue
		}
		data, err := os.ReadFile(m)
		if err != nil {
			return helpSource{}, err
		}
		src += string(data) + "\n"
	}
	texts, err := help.Parse(src)
	if err != nil {
		return helpSource{}, err
	}
	return helpSource{source: src, texts: texts}, nil
}
