package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// pipeNumbering is the name (the domain's agent label) and the numbering the
// agent answers its pipe with: hostcache's own in its domain, or,
// standing in for pmdalinux (-S linux), pmdalinux's name, PMIDs and
// instance domains for the twins, and nothing else.
func pipeNumbering(cfg config.Config, schema *cache.Schema, log zerolog.Logger) (string, pmda.Numbering, error) {
	if cfg.StandIn == "" {
		return config.Name, nil, nil
	}
	x, problems, err := standin.New(schema.Descs(), schema.InDoms(), standin.LinuxTable())
	if err != nil {
		return "", nil, err
	}
	for _, p := range problems {
		log.Info().Str("kind", string(p.Kind)).Str("name", p.Name).Str("why", p.Why).Msg("stand-in")
	}
	log.Info().Int("twins", x.Twins()).Int("metrics", len(schema.Descs())).Msg("standing in for pmdalinux")
	return cfg.StandIn, x, nil
}

// linuxIDFiles works out which of the collectors' instance domains keep
// their ids in pmdalinux's own id files, and as which serial. The
// collectors load their ids as they are made, before there is a schema
// to build the stand-in's numbering from, so a first set is made with ids
// in memory only, for its declarations: no id file is read or written.
func linuxIDFiles(cfg config.Config, env engine.Env) (map[cache.InDomID]uint32, error) {
	env.IDDir, env.IDs, env.Warn = "", nil, func(error) {}
	cs, _, err := makeCollectors(cfg, env)
	if err != nil {
		return nil, err
	}
	runner := engine.NewRunner(zerolog.Nop(), cs, engine.Schedule{Default: time.Second})
	schema, err := cache.NewSchema(runner.Sources()...)
	if err != nil {
		return nil, err
	}
	x, _, err := standin.New(schema.Descs(), schema.InDoms(), standin.LinuxTable())
	if err != nil {
		return nil, err
	}
	return x.KeptFiles(), nil
}

// withPlaceholders adds, standing in for pmdalinux, the placeholders of
// the pmdalinux metrics no collector has a twin of (standin.Placeholders):
// their descriptors answer, their values never.
func withPlaceholders(cfg config.Config, sources []cache.Source) []cache.Source {
	if cfg.StandIn == "" {
		return sources
	}
	have := map[string]bool{}
	for _, src := range sources {
		for _, d := range src.Metrics {
			have[d.Name] = true
		}
	}
	return append(sources, standin.Placeholders(standin.LinuxTable(), have))
}

// standInTexts answers pmdalinux's numbering with pmdalinux's own help,
// compiled in its PMDA directory, so that archives logged before and
// after the switch carry the same text and pmlogextract merges them
// without a warning. The placeholders have a help text of their own where
// pmdalinux's is absent.
type standInTexts struct {
	pmda.TextSource
	linux        *help.Compiled // nil when pmdalinux's help cannot be read
	placeholders map[string]bool
}

// textsFor is the help the server answers with: the help file's, and,
// standing in, pmdalinux's and the placeholders'.
func textsFor(cfg config.Config, texts pmda.TextSource, schema *cache.Schema, log zerolog.Logger) pmda.TextSource {
	if cfg.StandIn == "" {
		return texts
	}
	t := standInTexts{texts, linuxHelp(log), map[string]bool{}}
	for _, d := range schema.Descs() {
		if standin.IsPlaceholder(d.ID) {
			t.placeholders[d.Name] = true
		}
	}
	return t
}

// linuxHelp reads pmdalinux's compiled help, $PCP_PMDAS_DIR/linux/help.
func linuxHelp(log zerolog.Logger) *help.Compiled {
	dir := os.Getenv("PCP_PMDAS_DIR")
	if dir == "" {
		log.Warn().Msg("stand-in: PCP_PMDAS_DIR is not set; pmdalinux's names answer with hostcache's help")
		return nil
	}
	base := filepath.Join(dir, "linux", "help")
	c, err := help.ReadCompiled(base)
	if err != nil {
		log.Warn().Err(err).Msg("stand-in: pmdalinux's names answer with hostcache's help")
		return nil
	}
	log.Info().Str("file", base).Int("texts", c.Len()).Msg("stand-in: pmdalinux's names answer with pmdalinux's help")
	return c
}

// WireText answers pmdalinux's PMIDs and instance domains, all the
// stand-in's domain has, from pmdalinux's help.
func (t standInTexts) WireText(ident uint32, indom, long bool) (string, bool) {
	if t.linux == nil {
		return "", false
	}
	if indom {
		return t.linux.InDom(ident, long)
	}
	return t.linux.Metric(ident, long)
}

func (t standInTexts) MetricText(name string, long bool) (string, bool) {
	if !t.placeholders[name] {
		return t.TextSource.MetricText(name, long)
	}
	return placeholderText(strings.TrimPrefix(name, "hostcache."), long), true
}

// placeholderText is the help of a pmdalinux metric hostcache does not
// sample.
func placeholderText(name string, long bool) string {
	if !long {
		return "pmdalinux's " + name + ", not sampled by hostcache"
	}
	return "hostcache, standing in for pmdalinux, describes " + name + " as pmdalinux does, " +
		"and has no values for it: no collector of hostcache samples its source yet."
}
