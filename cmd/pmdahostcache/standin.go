package main

import (
	"errors"
	"os"
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/help"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// standInAgent is the agent -S names; config.validate has checked it.
func standInAgent(cfg config.Config) (standin.Agent, bool) {
	if cfg.StandIn == "" {
		return standin.Agent{}, false
	}
	return standin.AgentNamed(cfg.StandIn)
}

// pipeNumbering is the name (the domain's agent label) and the numbering the
// agent answers its pipe with: hostcache's own in its domain, or,
// standing in for another agent (-S linux, -S proc), that agent's name,
// PMIDs and instance domains for the twins, and nothing else.
func pipeNumbering(cfg config.Config, schema *cache.Schema, log zerolog.Logger) (string, pmda.Numbering, error) {
	agent, ok := standInAgent(cfg)
	if !ok {
		return config.Name, nil, nil
	}
	x, problems, err := standin.New(agent, schema.Descs(), schema.InDoms())
	if err != nil {
		return "", nil, err
	}
	for _, p := range problems {
		log.Info().Str("kind", string(p.Kind)).Str("name", p.Name).Str("why", p.Why).Msg("stand-in")
	}
	log.Info().Int("twins", x.Twins()).Int("metrics", len(schema.Descs())).Str("agent", agent.Name).
		Uint32("domain", agent.Domain).Msg("standing in")
	return agent.Name, x, nil
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
// the agent stood in for that no collector has a twin of
// (standin.Placeholders): their descriptors answer, their values never.
func withPlaceholders(cfg config.Config, sources []cache.Source) []cache.Source {
	agent, ok := standInAgent(cfg)
	if !ok {
		return sources
	}
	have := map[string]bool{}
	for _, src := range sources {
		for _, d := range src.Metrics {
			have[d.Name] = true
		}
	}
	return append(sources, standin.Placeholders(agent, have))
}

// textsFor is the help the server answers with: the help files' and the
// collectors', and, standing in, the agent's own and the placeholders'
// (help.StandIn).
func textsFor(cfg config.Config, texts help.TextSource, schema *cache.Schema, log zerolog.Logger) help.TextSource {
	agent, ok := standInAgent(cfg)
	if !ok {
		return texts
	}
	var placeholders []string
	for _, d := range schema.Descs() {
		if standin.IsPlaceholder(d.ID) {
			placeholders = append(placeholders, d.Name)
		}
	}
	return help.NewStandIn(agent.Name, texts, agentHelp(agent.Name, log), placeholders)
}

// agentHelp reads the compiled help of the agent stood in for,
// $PCP_PMDAS_DIR/<name>/help.
func agentHelp(name string, log zerolog.Logger) *help.Compiled {
	c, base, err := help.ReadAgent(os.Getenv("PCP_PMDAS_DIR"), name)
	switch {
	case errors.Is(err, help.ErrNoPMDAsDir):
		log.Warn().Msgf("stand-in: PCP_PMDAS_DIR is not set; pmda%s's names answer with hostcache's help", name)
		return nil
	case err != nil:
		log.Warn().Err(err).Msgf("stand-in: pmda%s's names answer with hostcache's help", name)
		return nil
	}
	log.Info().Str("file", base).Int("texts", c.Len()).
		Msgf("stand-in: pmda%s's names answer with pmda%s's help", name, name)
	return c
}
