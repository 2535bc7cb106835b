package main

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// standInAgents are every agent the process answers in place of: the
// pipe's (-S) and the sockets' (-B name=path).
func standInAgents(cfg config.Config) []standin.Agent {
	var out []standin.Agent
	for _, name := range cfg.StandIns() {
		if a, ok := standin.AgentNamed(name); ok {
			out = append(out, a)
		}
	}
	return out
}

// agentNumbering is the numbering of a stand-in's domain: the agent's
// PMIDs and instance domains for the twins, and nothing else.
func agentNumbering(agent standin.Agent, schema *cache.Schema, log zerolog.Logger) (*standin.Numbering, error) {
	x, problems, err := standin.New(agent, schema.Descs(), schema.InDoms())
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		log.Info().Str("kind", string(p.Kind)).Str("name", p.Name).Str("why", p.Why).Msg("stand-in")
	}
	log.Info().Int("twins", x.Twins()).Int("metrics", len(schema.Descs())).Str("agent", agent.Name).
		Uint32("domain", agent.Domain).Msg("standing in")
	return x, nil
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
	x, _, err := standin.New(standin.Linux(), schema.Descs(), schema.InDoms())
	if err != nil {
		return nil, err
	}
	return x.KeptFiles(), nil
}

// withPlaceholders adds, standing in, the placeholders of the metrics of
// each agent stood in for that no collector has a twin of
// (standin.Placeholders): their descriptors answer, their values never.
func withPlaceholders(cfg config.Config, sources []cache.Source) []cache.Source {
	agents := standInAgents(cfg)
	if len(agents) == 0 {
		return sources
	}
	have := map[string]bool{}
	for _, src := range sources {
		for _, d := range src.Metrics {
			have[d.Name] = true
		}
	}
	for _, agent := range agents {
		sources = append(sources, standin.Placeholders(agent, have))
	}
	return sources
}

// textsFor is the help a stand-in's domain answers with: the agent's
// own, the placeholders', and the help files' and the collectors' for
// the rest (help.StandIn).
func textsFor(agent standin.Agent, texts help.TextSource, schema *cache.Schema, log zerolog.Logger) help.TextSource {
	var placeholders []string
	for _, d := range schema.Descs() {
		if standin.IsPlaceholder(d.ID) {
			placeholders = append(placeholders, d.Name)
		}
	}
	return help.NewStandIn(agent.Name, texts, agentHelp(agent.Name, log), placeholders)
}

// agentHelp is the help of the agent stood in for: its compiled help,
// $PCP_PMDAS_DIR/<name>/help, then what Install captured of the texts the
// agent answers from its code (help.ReadCaptured).
func agentHelp(name string, log zerolog.Logger) *help.Compiled {
	dir := os.Getenv("PCP_PMDAS_DIR")
	if dir == "" {
		log.Warn().Msgf("stand-in: PCP_PMDAS_DIR is not set; pmda%s's names answer with hostcache's help", name)
		return nil
	}
	captured, base := capturedHelp(dir, name, log)
	all, added := help.Layer(agentHelpFile(dir, name, log), captured)
	if captured != nil {
		log.Info().Str("file", base).Int("texts", captured.Len()).Int("added", added).
			Msgf("stand-in: help captured of pmda%s, for the PMIDs its help file lacks", name)
	}
	if all == nil {
		log.Warn().Msgf("stand-in: pmda%s's names answer with hostcache's help", name)
	}
	return all
}

// agentHelpFile reads the agent's compiled help, or nil.
func agentHelpFile(dir, name string, log zerolog.Logger) *help.Compiled {
	c, base, err := help.ReadAgent(dir, name)
	if err != nil {
		log.Warn().Err(err).Msgf("stand-in: pmda%s's help file is not read", name)
		return nil
	}
	log.Info().Str("file", base).Int("texts", c.Len()).Msgf("stand-in: pmda%s's help file", name)
	return c
}

// capturedHelp reads the help Install captured of the agent, or nil, and
// the base name of its files. Most agents have none.
func capturedHelp(dir, name string, log zerolog.Logger) (*help.Compiled, string) {
	c, base, err := help.ReadCaptured(dir, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		log.Info().Str("file", base).Msgf("stand-in: no help captured of pmda%s", name)
	case err != nil:
		log.Warn().Err(err).Msgf("stand-in: the help captured of pmda%s is not read", name)
	}
	return c, base
}
