package main

import (
	"time"

	"github.com/rs/zerolog"

	"github.com/pmdahostcache/pmdahostcache/cache"
	"github.com/pmdahostcache/pmdahostcache/config"
	"github.com/pmdahostcache/pmdahostcache/engine"
	"github.com/pmdahostcache/pmdahostcache/pmda"
	"github.com/pmdahostcache/pmdahostcache/standin"
)

// identity is the name (the domain's agent label) and the numbering the
// agent answers with: hostcache's own in its domain, or, standing in for
// pmdalinux (-S linux), pmdalinux's name, PMIDs and instance domains for
// the twins and domain 60 past pmdalinux's clusters for the rest.
func identity(cfg config.Config, schema *cache.Schema, log zerolog.Logger) (string, pmda.Identity, error) {
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
// to build the stand-in's identity from, so a first set is made with ids
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
